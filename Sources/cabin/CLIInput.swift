import ArgumentParser
import CabinIO
import CabinPlayback
import CabinSession
import FoundationEssentials

/// Reading the documents the CLI is given (the libraries take bytes, never paths).
enum CLIInput {
    /// The file's bytes, or `nil` after printing one line saying why not. `-` is stdin.
    static func readDocument(_ path: String, limit: Int = DocumentFile.maximumBytes, kind: String = "document") -> [UInt8]? {
        do { return try DocumentFile.read(path, limit: limit, kind: kind) } catch {
            CLIOutput.error(error)
            return nil
        }
    }

    /// A time option (`--from`, `--to`): a time, and inside a session's longest length.
    static func validateTime(_ value: String, option: String) throws {
        guard let seconds = SessionTime.parse(value) else {
            throw ValidationError("\(option) '\(value)' is not a time: \(SessionTime.rule)")
        }
        guard seconds <= SessionTime.maximum else {
            throw ValidationError("\(option) '\(value)' is too long: \(SessionTime.maximumRule)")
        }
    }
}
