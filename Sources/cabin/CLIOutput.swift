import ArgumentParser
import CabinAudio
import CabinIO
import CabinPlayback
import FoundationEssentials
import Glibc

/// Printing for the CLI: errors as one line on stderr, JSON for scripts. Messages go out
/// terminal-safe (`String.terminalSafe`): a control character quoted from a document, a tag
/// or a station cannot move the cursor, retitle the window or start a line of its own.
enum CLIOutput {
    /// Prints `cabin: error: MESSAGE` on stderr.
    static func error(_ message: String) {
        StandardStreams.writeError("cabin: error: \(message.terminalSafe)\n")
    }

    /// Prints `cabin: warning: MESSAGE` on stderr.
    static func warning(_ message: String) {
        StandardStreams.writeError("cabin: warning: \(message.terminalSafe)\n")
    }

    /// Prints `cabin: MESSAGE` on stderr (a note, not a problem).
    static func note(_ message: String) {
        StandardStreams.writeError("cabin: \(message.terminalSafe)\n")
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
    /// Opens `path` for writing before any work (see `OutputFile`), refusing an output that
    /// is one of `inputs` (compared as files, so `./x.json` and a hard link count); on a
    /// problem prints one line and throws exit status 1. From here on SIGINT, SIGTERM and
    /// SIGHUP remove the temporary and exit (`Interrupt.installExiting`) unless the command
    /// installs its own handling (`Interrupt.install`).
    /// The format `path`'s extension names (see `SoundFileFormat.forOutput`), or one error
    /// line listing the formats. An output that is one of `inputs` is refused first.
    static func format(_ path: String, encoding: SoundFileFormat.SampleEncoding, inputs: [String] = []) throws -> SoundFileFormat {
        try refuseSame(path, inputs: inputs)
        do { return try SoundFileFormat.forOutput(path, encoding: encoding) } catch {
            CLIOutput.error(error)
            throw ExitCode.failure
        }
    }

    static func open(_ path: String, inputs: [String] = []) throws -> OutputFile {
        try refuseSame(path, inputs: inputs)
        Interrupt.installExiting()
        do { return try OutputFile(path) } catch {
            CLIOutput.error(error)
            throw ExitCode.failure
        }
    }

    /// A usage error when `path` does not end in `.EXTENSION` (a picture written as SVG is
    /// never saved under another format's name).
    static func requireExtension(_ path: String, _ ext: String, what: String) throws {
        // "-" and a folder are the output's own checks (a folder: "is a directory").
        var info = stat()
        guard path != "-", !(stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR) else { return }
        let name = path.lastPathComponent
        let given = name.lastIndex(of: ".").map { String(name[name.index(after: $0)...]) }
        guard given?.lowercased() == ext else {
            throw ValidationError("-o \(path): this command writes \(what); name the file .\(ext)\(given.map { " (not .\($0))" } ?? "")")
        }
    }

    /// Prints one line and throws exit status 1 when `path` is the same file as an input.
    static func refuseSame(_ path: String, inputs: [String]) throws {
        if let input = inputs.first(where: { OutputFile.isSameFile(path, $0) }) {
            CLIOutput.error("\(path): is the same file as the input \(input); write the output to another file")
            throw ExitCode.failure
        }
    }

    /// Prints a command's summary line: on stdout, or on stderr when the output itself
    /// went to stdout (`-o -`).
    static func summary(_ line: String, output: String?) {
        let line = line.terminalSafe   // it may name a document's title
        if output == "-" { StandardStreams.writeError(line + "\n") } else { print(line) }
    }

    /// Writes `text` to `output` and commits it; on a problem prints one line and throws
    /// exit status 1.
    static func write(_ text: String, to output: OutputFile) throws {
        do {
            try output.write(text)
            try output.commit()
        } catch {
            output.discard()
            CLIOutput.error(error)
            throw ExitCode.failure
        }
    }
}
