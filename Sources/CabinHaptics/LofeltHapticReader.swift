import CabinJSON

/// Reads Meta / Lofelt `.haptic` documents (Meta Haptics Studio, Nice Vibrations) and maps
/// them onto a ``HapticPattern``.
///
/// Format: `version` {`major` (must be 1), `minor`, `patch`}, `metadata` (its `project`,
/// `author` and `description` kept as AHAP's `Project`, `Created`, `Description`, as Lofelt's
/// converter writes them),
/// `signals.continuous.envelopes.amplitude` (required, non-empty) `[{time, amplitude,
/// emphasis?: {amplitude, frequency}}]`, optional `frequency` `[{time, frequency}]`; values
/// 0…1 (clamped with a warning), times ≥ 0 and ascending (sorted with a warning).
///
/// Mapping (after Lofelt's open-source converter):
/// - the amplitude envelope becomes continuous events spanning first…last breakpoint, split
///   into pieces of at most 30 s (Core Haptics' cap), each carrying an event-local intensity
///   envelope of √amplitude at the breakpoints (× 0.8 at a breakpoint with emphasis: the
///   texture ducked under its click), linear between them;
/// - the frequency envelope becomes an event-local sharpness envelope of √frequency (held
///   at its ends); without one, sharpness is 0.5;
/// - each emphasis becomes a HapticTransient at its breakpoint's time with intensity
///   √emphasis.amplitude and sharpness emphasis.frequency (as it is: Lofelt's converter
///   takes no root of it, so `ahap_from_valid_v1.ahap`'s 0.7 for a frequency of 0.7).
/// Event-local envelopes (not pattern-wide curves) keep transients at their own intensity.
///
/// Thread: pure; any thread except the render thread.
public enum LofeltHapticReader {
    /// Reads `.haptic` `bytes`; `file` is only used in diagnostics.
    public static func read(_ bytes: [UInt8], file: String, options: HapticReadOptions = .lenient) -> HapticReadResult {
        var walk = LofeltWalk(walker: DocumentWalker(file: file, limits: options.limits, format: "haptic"))
        let pattern = walk.read(bytes)
        return walk.walker.finish(pattern, mode: options.mode)
    }

    /// Reads `.haptic` text; see ``read(_:file:options:)``.
    public static func read(_ text: String, file: String, options: HapticReadOptions = .lenient) -> HapticReadResult {
        read(Array(text.utf8), file: file, options: options)
    }
}

/// The walk over one `.haptic` document.
struct LofeltWalk {
    var walker: DocumentWalker

    static let topLevelKeys = JSONKeySet(["version", "metadata", "signals"])
    static let signalsKeys = JSONKeySet(["continuous"])
    static let continuousKeys = JSONKeySet(["envelopes"])
    static let envelopesKeys = JSONKeySet(["amplitude", "frequency"])
    static let versionKeys = JSONKeySet(["major", "minor", "patch"])
    static let amplitudePointKeys = JSONKeySet(["time", "amplitude", "emphasis"])
    static let frequencyPointKeys = JSONKeySet(["time", "frequency"])
    static let emphasisKeys = JSONKeySet(["amplitude", "frequency"])

    struct Breakpoint {
        var time: Double
        var value: Double
        var emphasis: (amplitude: Double, frequency: Double)?
    }

    mutating func read(_ bytes: [UInt8]) -> HapticPattern? {
        guard let root = walker.parse(bytes), let object = walker.object(root, .root) else { return nil }
        walker.warnUnknownKeys(object, known: Self.topLevelKeys, .root)
        let version = readVersion(object)
        let signalsPath = JSONPath.root.key("signals")
        guard let signalsValue = walker.required("signals", in: object, .root),
              let signals = walker.object(signalsValue, signalsPath) else { return nil }
        walker.warnUnknownKeys(signals, known: Self.signalsKeys, signalsPath)
        let continuousPath = signalsPath.key("continuous")
        guard let continuousValue = walker.required("continuous", in: signals, signalsPath),
              let continuous = walker.object(continuousValue, continuousPath) else { return nil }
        walker.warnUnknownKeys(continuous, known: Self.continuousKeys, continuousPath)
        let path = continuousPath.key("envelopes")
        guard let envelopesValue = walker.required("envelopes", in: continuous, continuousPath),
              let envelopes = walker.object(envelopesValue, path) else { return nil }
        walker.warnUnknownKeys(envelopes, known: Self.envelopesKeys, path)
        guard let amplitudeValue = walker.required("amplitude", in: envelopes, path),
              let amplitude = readBreakpoints(amplitudeValue, path.key("amplitude"), valueKey: "amplitude")
        else { return nil }
        var frequency: [Breakpoint]?
        if let frequencyValue = walker.doc.member(envelopes, "frequency") {
            frequency = readBreakpoints(frequencyValue, path.key("frequency"), valueKey: "frequency")
        }
        guard !walker.diagnostics.hasErrors else { return nil }
        var pattern = LofeltMapping.pattern(amplitude: amplitude, frequency: frequency, version: version,
                                            maxContinuousDuration: walker.limits.maxContinuousDuration)
        pattern.metadata = readMetadata(object)
        return pattern
    }

    /// `metadata`'s `project`, `author` and `description` under AHAP's names (Lofelt's
    /// converter's mapping); empty strings and other members are left out.
    private func readMetadata(_ object: Int) -> [String: String] {
        let doc = walker.doc
        guard let value = doc.member(object, "metadata"), doc.kind(value) == .object else { return [:] }
        var result: [String: String] = [:]
        for (from, to) in [("project", "Project"), ("author", "Created"), ("description", "Description")] {
            if let member = doc.member(value, from), let text = doc.stringValue(member), !text.isEmpty { result[to] = text }
        }
        return result
    }

    private mutating func readVersion(_ object: Int) -> Double? {
        let path = JSONPath.root.key("version")
        guard let value = walker.required("version", in: object, .root),
              let version = walker.object(value, path) else { return nil }
        walker.warnUnknownKeys(version, known: Self.versionKeys, path)
        guard let majorValue = walker.required("major", in: version, path),
              let major = walker.doc.integer(majorValue, at: path.key("major"), in: &walker.diagnostics)
        else { return nil }
        if major != 1 {
            walker.error("unsupported version major \(walker.doc.excerpt(majorValue)): the supported major version is 1",
                         at: majorValue, path: path.key("major"), rule: "version")
        }
        return Double(major)
    }
}
