import CabinJSON

extension SessionDocument {
    /// Every problem the reader reports for this document — unknown buses, layers,
    /// parameters, sounds and patterns (with `references`), ranges, with "did you mean" —
    /// for a document made in code (`SessionDocument(…)`, `Layer(…)`, `Cue(…)`), which
    /// `SessionCompiler` would otherwise compile as it is, leaving out a layer on a bus that
    /// does not exist. Each diagnostic's `path` (`layers.rain.bus`, `cues[2].start`) says
    /// where; print them with `pathDescription`, not `description` (its line and column are
    /// of the JSON this document writes, which the app never wrote).
    public func validated(references: SessionReferences? = nil) -> Diagnostics {
        SessionReader.read(json(), file: SessionDocument.inCodeName, references: references).diagnostics
    }

    /// The name a document made in code has in messages.
    public static let inCodeName = "session in code"
}

extension Diagnostic {
    /// `PATH: SEVERITY: MESSAGE` on one line (no file, line or column): for a document the
    /// app made in code (`SessionDocument.validated`).
    public var pathDescription: String {
        let oneLine = message.split(whereSeparator: \.isNewline).joined(separator: " ")
        return "\(path): \(severity.rawValue): \(oneLine)"
    }
}
