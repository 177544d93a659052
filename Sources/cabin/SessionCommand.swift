import ArgumentParser
import CabinSession
import Foundation

/// `cabin session …`: session documents.
struct SessionCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "session",
        abstract: "Check session documents.",
        discussion: """
            A session document is a JSON file that says what to play, on which bus, and when (see SESSION-FORMAT.md).

            Examples:
              cabin session validate drive.json
              cabin session validate Patterns/sessions/*.json
            """,
        subcommands: [Validate.self])

    struct Validate: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Report every problem in session documents (exit 1 if any has an error).",
            discussion: """
                Each problem is one line: FILE:LINE:COL: error: JSON.PATH: what is wrong. A valid document prints 'FILE: ok' (with its length, layers and cues).
                """)

        @Argument(help: "Session documents (JSON).")
        var files: [String]

        func run() throws {
            var failed = false
            for file in files {
                guard let bytes = CLIInput.readDocument(file) else { failed = true; continue }
                let result = SessionReader.read(bytes, file: file)
                for diagnostic in result.diagnostics { print(diagnostic) }
                if let doc = result.document {
                    print("\(file): ok (\(SessionTime.format(doc.duration)), \(doc.layers.count) layer\(doc.layers.count == 1 ? "" : "s"), \(doc.cues.count) cue\(doc.cues.count == 1 ? "" : "s"))")
                } else {
                    failed = true
                }
            }
            if failed { throw ExitCode.failure }
        }
    }
}
