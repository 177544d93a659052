/// What a cue's `haptic` string names: a pattern of the library (`Patterns/haptics/NAME.ahap`)
/// or a pattern file relative to the document.
///
/// - a path: it starts with `./` or ends in `.ahap` or `.haptic` (`patterns/knock.ahap`);
///   `..` and absolute paths are errors, as for sounds;
/// - anything else is a library name (`engine-start`, `ui/tick`): lowercase letters,
///   digits, `-`, `_` and `/`.
///
/// Thread: a value type; pure; any thread.
public enum HapticReference: Sendable, Hashable, CustomStringConvertible {
    /// A pattern of the library by name (`engine-start`, `ui/tick`), without extension.
    case library(String)
    /// A pattern file, its path relative to the document's folder (a leading `./` removed).
    case file(String)

    /// The extensions (lowercase, without the dot) that make a name a file path.
    public static let fileExtensions = ["ahap", "haptic"]

    /// Parses `text`, or says what is wrong with it (message and rule).
    public static func parse(_ text: String) -> Result<HapticReference, SoundReferenceParser.Problem> {
        if text.isEmpty {
            return .failure(.init(message: "a haptic needs a pattern name (like engine-start) or a path (like patterns/knock.ahap)",
                                  rule: "session.haptic"))
        }
        if text.hasPrefix("/") {
            return .failure(.init(message: "\"\(text)\" is an absolute path: haptic patterns are library names or paths relative to the document's folder",
                                  rule: "session.haptic-path"))
        }
        if text.split(separator: "/", omittingEmptySubsequences: false).contains("..") {
            return .failure(.init(message: "\"\(text)\" leaves the document's folder: \"..\" is not allowed in pattern paths",
                                  rule: "session.haptic-path"))
        }
        let ext = text.split(separator: ".").last.map { $0.lowercased() } ?? ""
        if text.hasPrefix("./") || (text.contains(".") && fileExtensions.contains(ext)) {
            return .success(.file(text.hasPrefix("./") ? String(text.dropFirst(2)) : text))
        }
        let allowed = Set("abcdefghijklmnopqrstuvwxyz0123456789-_/")
        guard text.allSatisfy({ allowed.contains($0) }) else {
            return .failure(.init(message: "\"\(text)\" is neither a pattern name (like engine-start) nor a pattern file path (like patterns/knock.ahap)",
                                  rule: "session.haptic"))
        }
        return .success(.library(text))
    }

    /// The name or path as a document writes it (without a `./` it was given with).
    public var description: String {
        switch self {
        case .library(let name): name
        case .file(let path): path
        }
    }
}
