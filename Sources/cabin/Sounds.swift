import ArgumentParser
import CabinIO
import CabinPlayback
import CabinSession
import CabinSoundDesign
import FoundationEssentials

/// `cabin sounds …`: the built-in sound library.
struct SoundsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sounds",
        abstract: "The built-in sound library: list, hear, render and regenerate it.",
        discussion: """
            Every sound in Sounds/ is made by a seeded recipe in CabinSoundDesign;
            regenerating gives the same files. The library is $CABIN_SOUNDS or the
            Sounds/ folder above the cabin binary.

            Examples:
              cabin sounds list
              cabin sounds play engine/v8 --loops 3
              cabin sounds render ambient/rain -o rain.wav
              cabin sounds generate --only engine/v8 --only ui/horn
            """,
        subcommands: [List.self, Play.self, RenderSound.self, Generate.self])

    static func library() throws -> SoundLibrary {
        do {
            guard let library = try SoundLibrary.standard() else {
                CLIOutput.error("no sound library found: run 'cabin sounds generate' or set CABIN_SOUNDS")
                throw ExitCode.failure
            }
            return library
        } catch let error as SoundLibraryError {
            CLIOutput.error("sound library: \(error)")
            throw ExitCode.failure
        }
    }

    static func entry(_ name: String, in library: SoundLibrary) throws -> SoundManifest.Entry {
        guard let entry = library.manifest.entry(named: name) else {
            CLIOutput.error("\(name): not in the sound library (see 'cabin sounds list')")
            throw ExitCode.failure
        }
        return entry
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list",
            abstract: "List library sounds: name, category, duration, loudness, loop.")

        @Option(help: "Only this category (engine, ambient, ui, radio, voice).")
        var category: String?

        @Flag(help: "Print JSON (an array of sounds, durations in seconds, loop points in frames of the file).")
        var json = false

        /// One sound in `--json`.
        struct Item: Encodable {
            var name, category, file: String
            var duration: Double?
            var loudness: Double?
            var truePeak: Double?
            var trim: Double
            var loopStart: Int?
            var loopEnd: Int?
            var description: String?
        }

        func run() throws {
            let library = try SoundsCommand.library()
            let sounds = library.manifest.sounds.filter { category == nil || $0.category == category }
            if json {
                try CLIOutput.json(sounds.map {
                    Item(name: $0.name, category: $0.category, file: $0.file, duration: $0.duration, loudness: $0.loudness,
                         truePeak: $0.truePeak, trim: $0.trim, loopStart: $0.loopStart, loopEnd: $0.loopEnd,
                         description: $0.description)
                })
                return
            }
            print("NAME                       CATEGORY  DURATION    LOUDNESS       TRIM  LOOP")
            for e in sounds {
                let loop = e.loopEnd.map { "\(e.loopStart ?? 0)…\($0)" } ?? "-"
                print(e.name.padded(toLength: max(26, e.name.count)) + " "
                      + e.category.padded(toLength: 8)
                      + String(cFormat: "%8.2f s  ", e.duration ?? 0)
                      + CLIOutput.decibels(e.loudness, "LUFS").leftPadded(10)
                      + String(cFormat: "  %+6.1f dB  ", e.trim) + loop)
            }
        }
    }

    struct Play: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "play",
            abstract: "Play a library sound at its loudness trim through ALSA.")

        @Argument(help: "Library name, e.g. engine/v8.")
        var name: String

        @OptionGroup(title: "Sound device") var output: DeviceArguments

        @Option(help: "Times to play a loop back to back (to hear its seam).")
        var loops = 2

        func run() throws {
            let device = try output.configured()
            let library = try SoundsCommand.library()
            let entry = try SoundsCommand.entry(name, in: library)
            do {
                try SoundPreview.play(try SoundPreview.buffer(entry, in: library, loops: loops), device: device)
            } catch {
                CLIOutput.error(error)
                throw ExitCode.failure
            }
        }
    }

    struct RenderSound: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "render",
            abstract: "Write a library sound (at its trim, loops repeated) to a WAV or FLAC file.")

        @Argument(help: "Library name, e.g. ambient/rain.")
        var name: String

        @Option(name: .shortAndLong, help: "Output file (.wav, .flac, .aiff: 16-bit; .opus, .ogg, .mp3).")
        var output: String

        @Option(help: "Times to repeat a loop back to back.")
        var loops = 2

        func run() throws {
            let library = try SoundsCommand.library()
            let entry = try SoundsCommand.entry(name, in: library)
            let inputs = [library.url(for: entry).path]
            let format = try CLIOutput.format(output, encoding: .pcm16, inputs: inputs)
            let destination = try CLIOutput.open(output, inputs: inputs)
            do {
                let buffer = try SoundPreview.buffer(entry, in: library, loops: loops)
                try SoundFile.write(buffer, to: destination, format: format)
                CLIOutput.summary("\(output): \(name), \(CLIOutput.clock(buffer.duration))", output: output)
            } catch {
                CLIOutput.error(error)
                throw ExitCode.failure
            }
        }
    }

    struct Generate: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "generate",
            abstract: "Regenerate library sounds and Sounds/manifest.json from their recipes.")

        @Option(help: "Only this sound (repeatable); the other manifest entries are kept.")
        var only: [String] = []

        @Option(help: "The library folder (default: the library cabin finds, else ./Sounds).")
        var output: String?

        func run() throws {
            let folder = output.map { URL(fileURLWithPath: $0) } ?? SoundLibrary.locate()
                ?? URL(fileURLWithPath: "Sounds")
            let generator = SoundLibraryGenerator(folder: folder)
            if let unknown = only.first(where: { SoundRecipes.named($0) == nil }) {
                CLIOutput.error("\(unknown): no such sound (see 'cabin sounds list')")
                throw ExitCode.failure
            }
            let started = ContinuousClock.now
            do {
                let reports = try generator.generate(only: only.isEmpty ? nil : only) { print($0.line) }
                let bytes = reports.reduce(0) { $0 + $1.bytes }
                let elapsed = ContinuousClock.now - started
                print(String(cFormat: bytes < 1_000_000 ? "%d sounds, %.1f kB in " : "%d sounds, %.1f MB in ",
                             reports.count, Double(bytes) / (bytes < 1_000_000 ? 1e3 : 1e6)) + folder.path
                      + String(cFormat: ", generated in %.2f s",
                               elapsed.inSeconds))
            } catch {
                CLIOutput.error(error)
                throw ExitCode.failure
            }
        }
    }
}

extension String {
    func leftPadded(_ width: Int) -> String { count >= width ? self : String(repeating: " ", count: width - count) + self }
}
