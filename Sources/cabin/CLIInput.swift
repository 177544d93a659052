import ArgumentParser
import CabinIO
import CabinPlayback
import CabinSession
import FoundationEssentials

/// Reading the documents the CLI is given (the libraries take bytes, never paths).
enum CLIInput {
    /// The file's bytes, or `nil` after printing one line saying why not. `-` is stdin.
    static func readDocument(_ path: String) -> [UInt8]? {
        if path == "-" {
            do { return try StandardStreams.readInput() } catch {
                CLIOutput.error("\(error)")
                return nil
            }
        }
        var isDirectory = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            CLIOutput.error("\(path): no such file")
            return nil
        }
        if isDirectory {
            CLIOutput.error("\(path): is a directory, not a document")
            return nil
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            CLIOutput.error("\(path): cannot be read (permission denied?)")
            return nil
        }
        return Array(data)
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
