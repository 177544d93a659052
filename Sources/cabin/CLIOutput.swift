import CabinAudio
import CabinIO
import CabinPlayback
import FoundationEssentials
import Glibc

/// Printing for the CLI: errors as one line on stderr, JSON for scripts.
enum CLIOutput {
    /// Prints `cabin: error: MESSAGE` on stderr.
    static func error(_ message: String) {
        StandardStreams.writeError("cabin: error: \(message)\n")
    }

    /// Prints `cabin: warning: MESSAGE` on stderr.
    static func warning(_ message: String) {
        StandardStreams.writeError("cabin: warning: \(message)\n")
    }

    /// Pretty, key-sorted JSON on stdout.
    static func json<T: Encodable>(_ value: T) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        print(String(decoding: try encoder.encode(value), as: UTF8.self))
    }

    /// Flushes stdout (status lines and JSON events must not wait in a buffer).
    static func flush() { fflush(nil) }

    /// `1:02:03.500` or `2:03.500`.
    static func clock(_ seconds: Double) -> String {
        let ms = Int((seconds * 1000).rounded())
        let h = ms / 3_600_000, m = ms / 60_000 % 60, s = ms / 1000 % 60, f = ms % 1000
        return h > 0 ? String(cFormat: "%d:%02d:%02d.%03d", h, m, s, f) : String(cFormat: "%d:%02d.%03d", m, s, f)
    }

    static func decibels(_ value: Double?, _ unit: String) -> String {
        guard let value else { return "-inf \(unit)" }
        return String(cFormat: "%.1f ", value) + unit
    }
}

extension CLIOutput {
    /// Why an output file cannot be created at `path`, checked before any work is done
    /// (`nil` when it looks writable): a missing folder, a directory in the way.
    static func outputProblem(_ path: String) -> String? {
        var isDirectory = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory {
            return "is a directory; give a file name"
        }
        let folder = path.deletingLastPathComponent
        if !folder.isEmpty && !FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory) {
            return "cannot be written: no such folder \(folder)"
        }
        if !folder.isEmpty && !isDirectory { return "cannot be written: \(folder) is not a folder" }
        return nil
    }
}
