/// Why a sound file could not be read or written. One line, naming the file and the cause.
public struct SoundFileError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong, as a kind a caller can act on.
    public enum Kind: Sendable, Equatable {
        case notFound
        case isDirectory
        case permissionDenied
        case empty
        case notAudio
        case unsupportedFormat
        case truncated
        case writeFailed
        case invalidArgument
    }

    public var kind: Kind
    /// The file as the user named it.
    public var path: String
    /// The cause in words (libsndfile's own message where it has one).
    public var reason: String

    public init(_ kind: Kind, path: String, reason: String) {
        self.kind = kind
        self.path = path
        self.reason = reason
    }

    public var description: String { "\(path): \(reason)" }
}
