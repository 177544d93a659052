import ArgumentParser
import CabinAudio
import CabinConfig
import CabinPlayback
import CabinSession
import FoundationEssentials

/// `cabin session …`: session documents.
struct SessionCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "session",
        abstract: "Print a preset's session document, list presets, check documents, draw them.",
        discussion: """
            A session document is a JSON file that says what to play, on which bus, and when (see docs/SESSION-FORMAT.md).

            Examples:
              cabin session --preset drive --minutes 50 > drive.json
              cabin session presets
              cabin session validate drive.json
              cabin session validate Patterns/sessions/*.json
              cabin session plot --preset drive -o drive.svg
              cabin session levels --preset drive
            """,
        subcommands: [Print.self, Presets.self, Validate.self, Plot.self, Levels.self], defaultSubcommand: Print.self)

    /// `cabin session --preset NAME [options]`: the preset's document, to read or edit.
    struct Print: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "print",
            abstract: "Print a preset's session document as JSON (start from it and edit).",
            discussion: """
                Examples:
                  cabin session --preset drive --minutes 50 --destination Yosemite > yosemite.json
                  cabin session --preset pomodoro --cycles 2 > short.json && cabin play short.json
                """)

        @OptionGroup(title: "Presets") var presets: PresetArguments

        func validate() throws {
            if presets.preset == nil { throw ValidationError("--preset NAME is needed (see 'cabin session presets')") }
        }

        func run() throws {
            // The session 'cabin play --preset' would play: the config file's options for the
            // preset under those given, its stations by name, the listener's haptic strength.
            let settings = try CLIConfig.settings().settings
            let name = presets.preset!
            var document = try PresetArguments.document(name: name, options: settings.presetOptions(for: name, given: presets.given))
            if let strength = settings.hapticStrengthOverride { document.hapticStrength = strength }
            print(document.json(), terminator: "")
        }
    }

    /// `cabin session presets`: what presets there are and their options, with the defaults
    /// in effect — the config file's `play.preset` and `[presets.NAME]` options (or
    /// `CABIN_PRESET`) over Cabin's own, each configured one naming where it was set.
    struct Presets: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "presets",
            abstract: "List the presets and their options, with the defaults your config sets.")

        @Flag(help: "Print JSON (an array of presets with their options and defaults).")
        var json = false

        struct Item: Encodable {
            struct Option: Encodable {
                var name, help, `default`: String
                /// Where the default comes from when it is not Cabin's own: the config file
                /// and line, or the environment variable.
                var configured: String?
            }
            var name, summary: String
            var `default`: Bool
            var options: [Option]
        }

        func run() throws {
            let settings = try CLIConfig.settings().settings
            let items = SessionPresets.all.map { preset in
                let configured = settings.presetOptions[preset.name] ?? [:]
                return Item(name: preset.name, summary: preset.summary, default: preset.name == settings.preset.value,
                            options: preset.options.map { option in
                                let setting = configured[option.name]
                                return .init(name: option.name, help: option.help,
                                             default: setting?.value ?? option.defaultValue,
                                             configured: setting?.origin.description)
                            })
            }
            if json { return try CLIOutput.json(items) }
            for item in items {
                let origin = item.default && settings.preset.origin != .builtIn ? ", \(settings.preset.origin.description)" : ""
                print("\(item.name)\(item.default ? " (default\(origin))" : ""): \(item.summary)")
                for option in item.options {
                    let source = option.configured.map { ", set in \($0)" } ?? ""
                    print("    --\(option.name.padded(toLength: 12)) \(option.help) (default: \(option.default)\(source))")
                }
            }
        }
    }

    struct Validate: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "validate",
            abstract: "Report every problem in session documents (exit 1 if any has an error).",
            discussion: """
                Each problem is one line: FILE:LINE:COL: error: JSON.PATH: what is wrong. A valid document prints 'FILE: ok' (with its length, layers and cues).
                """)

        @Argument(help: "Session documents (JSON).")
        var files: [String]

        func run() throws {
            var failed = false
            // Library names and files are checked too: what validates is what plays.
            let library = try? SoundLibrary.standard(), patterns = HapticPatternLibrary.locate()
            // Stations by name ("station:kexp") are the config file's.
            let stations = try CLIConfig.settings().settings.stations.mapValues(\.value)
            for file in files {
                guard let bytes = CLIInput.readDocument(file, limit: SessionReader.maximumBytes, kind: "session document") else {
                    failed = true
                    continue
                }
                // Relative paths from the document's folder (the working folder for "-"), as the loader does.
                let folder = URL(fileURLWithPath: file).deletingLastPathComponent()
                let references = SessionReferences.checking(documentFolder: folder, library: library, patterns: patterns,
                                                            stations: stations)
                let result = SessionReader.read(bytes, file: file, references: references)
                for diagnostic in result.diagnostics { print("\(diagnostic)".terminalSafe) }
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
