/// Why a sound file could not be read or written. One line, naming the file and the cause.
public struct SoundFileError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong, as a kind a caller can act on.
    public enum Kind: Sendable, Equatable {
        /// No file at the path (`ENOENT`, `ENOTDIR`, or another `stat` failure).
        case notFound
        /// The path is a folder.
        case isDirectory
        /// The file cannot be read for want of permission (`EACCES`).
        case permissionDenied
        /// The file has 0 bytes.
        case empty
        /// Not a sound file: a device, a pipe, a socket, or a file libsndfile cannot read as
        /// audio.
        case notAudio
        /// A sound file in a format or encoding that cannot be read, or written as asked.
        case unsupportedFormat
        /// The file ends before its audio does (cut short, or a header that claims more).
        case truncated
        /// Writing the file failed (opening, writing, committing, rewriting its pages).
        case writeFailed
        /// An argument out of range for the call; no function of Cabin's throws it now.
        case invalidArgument
    }

    /// What went wrong, to act on (`reason` says it in words).
    public var kind: Kind
    /// The file as the user named it.
    public var path: String
    /// The cause in words (libsndfile's own message where it has one).
    public var reason: String

    /// An error of `kind` for the file at `path`, `reason` saying why.
    public init(_ kind: Kind, path: String, reason: String) {
        self.kind = kind
        self.path = path
        self.reason = reason
    }

    public var description: String { "\(path): \(reason)" }
}
