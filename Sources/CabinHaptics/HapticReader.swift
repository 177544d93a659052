import CabinJSON

/// Reads either haptic format, chosen by the file name's extension (`.ahap`, `.haptic`),
/// or, for any other name, by content: a top-level `"signals"` key means `.haptic`,
/// anything else is read as AHAP.
///
/// Thread: pure; any thread except the render thread.
public enum HapticReader {
    /// The formats Cabin reads.
    public enum Format: String, Sendable, Hashable {
        /// Apple's AHAP (`.ahap`), read by ``AHAPReader``.
        case ahap
        /// Meta/Lofelt's `.haptic`, read by ``LofeltHapticReader``.
        case haptic
    }

    /// The format for `file` and `bytes` (see the type's rule).
    public static func format(of bytes: [UInt8], file: String) -> Format {
        let lower = file.lowercased()
        if lower.hasSuffix(".ahap") { return .ahap }
        if lower.hasSuffix(".haptic") { return .haptic }
        var scratch = Diagnostics(file: file)
        guard let doc = JSONParser.parseDocument(bytes, options: .lenient, diagnostics: &scratch),
              doc.kind(doc.root) == .object else { return .ahap }
        return doc.member(doc.root, "signals") != nil ? .haptic : .ahap
    }

    /// Reads `bytes` with the reader for its format.
    public static func read(_ bytes: [UInt8], file: String, options: HapticReadOptions = .lenient) -> HapticReadResult {
        switch format(of: bytes, file: file) {
        case .ahap: return AHAPReader.read(bytes, file: file, options: options)
        case .haptic: return LofeltHapticReader.read(bytes, file: file, options: options)
        }
    }
}
