import ArgumentParser
import CabinAudio
import CabinConfig
import CabinHaptics
import CabinIO
import CabinPlayback
import FoundationEssentials
import Glibc
import Synchronization

extension HapticsCommand {
    /// `cabin haptics watch FILE… [--audio | --rumble DEV | --dualsense NAME] [--loop]`: live
    /// reload for a designer's edits.
    struct Watch: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "watch",
            abstract: "Show a pattern, and play it, again on every save.",
            discussion: """
                Reads each FILE, prints its summary, its diagnostics and its terminal preview (as 'haptics show' does), and plays it where told (--audio [-D NAME], --rumble /dev/input/eventN or --dualsense NAME, as 'haptics play' does; nowhere named: it only shows). Then it waits: each time a FILE is saved (Linux inotify on its folder, so editors that save by renaming a new file over the old one are followed too), it is read again, shown again (in a terminal the screen is redrawn; piped, each reload is a block of lines) and played again from its start, replacing what was playing, with a line saying how long after the save its sound began. A save that cannot be read or has errors prints them, located, and the last good version goes on playing; a removed file is waited for. With several files, the one saved last plays. --loop plays it again and again. Ctrl-C stops.

                Examples:
                  cabin haptics watch Boing.ahap
                  cabin haptics watch Boing.ahap --audio --loop
                  cabin haptics watch shot.haptic --rumble /dev/input/event5
                  cabin haptics watch a.ahap b.ahap --dualsense hw:CARD=Controller
                """)

        @Argument(help: "Haptic patterns (.ahap, .haptic) to watch.")
        var files: [String]

        @OptionGroup var target: HapticsTargetArguments

        @Flag(help: "Play the pattern again and again (until the next save, or Ctrl-C).")
        var loop = false

        @Flag(help: "Strict reading: every fix lenient reading would make is an error.")
        var strict = false

        @OptionGroup var reading: HapticsReadingArguments

        @Option(help: "Columns for the terminal preview, labels included.")
        var width: Int = 80

        func validate() throws {
            guard !files.isEmpty else { throw ValidationError("name the patterns to watch") }
            guard !files.contains("-") else { throw ValidationError("standard input cannot be watched: name a file") }
            guard (20...1000).contains(width) else { throw ValidationError("--width must be 20…1000 columns") }
        }

        /// One file's state: its last read, and when the version that plays on was saved.
        struct Watched {
            var block: [String] = []
            var goodSince: String?
        }

        func run() throws {
            let settings = try CLIConfig.hapticsSettings(strength: target.strength)
            let strength = settings.hapticStrength.value
            let watcher: FileWatcher
            do { watcher = try FileWatcher(paths: files) } catch {
                CLIOutput.error(error)
                throw ExitCode.failure
            }
            Interrupt.install()
            target.warnDeprecated()
            let place = self.place(settings)
            let terminal = isatty(STDOUT_FILENO) == 1
            var watched = [Watched](repeating: Watched(), count: files.count)
            let previews = PreviewPlayer()
            var playing: Int?
            /// Where a reload's time goes: when it began, when the file was read and compiled,
            /// when its preview was handed to the player (this thread), and when the preview
            /// began on the player's thread (the last one stopped) and its device was open.
            var phases: [Int: (began: Double, read: Double, handed: Double)] = [:]
            let device = DeviceTimes()

            /// Reads file `k` again; plays it when it can be and something is named.
            func reload(_ k: Int, removed: Bool = false) {
                let file = files[k]
                var state = watched[k]
                let began = FileWatcher.now()
                let now = TimeOfDay.now()
                let keeping = state.goodSince.map { "; the version of \($0) plays on" } ?? ""
                if removed || !FileManager.default.fileExists(atPath: file) {
                    state.block = ["\(now)  \(file.terminalSafe): \(removed ? "removed" : "not there"); waiting for it\(keeping)"]
                    watched[k] = state
                    return
                }
                let read = CLIHaptics.read(file, strict: strict, reading: reading.curveTimes, quiet: reading.quiet, strength: strength)
                guard let loaded = read.loaded else {
                    let errors = read.lines.filter { $0.contains(": error: ") }.count
                    state.block = ["\(now)  \(file.terminalSafe): not loaded (\(errors == 1 ? "1 error" : "\(max(errors, 1)) errors"))\(keeping)"] + read.lines
                    watched[k] = state
                    return
                }
                let readAt = FileWatcher.now()
                var block = ["\(now)  \(file.terminalSafe): \(CLIHaptics.summary(loaded.pattern, loaded.compiled))"] + read.lines
                block += HapticPreview.terminal(loaded.compiled, width: width).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
                // The sound for --audio and --dualsense, made now: a waveform's error keeps the last good version.
                var preview: PreviewPlayer.Preview?
                switch place {
                case .nowhere: break
                case .rumble(let device):
                    let compiled = loaded.compiled, options = RumblePlanOptions(mapping: target.mapping), gain = target.gain
                    preview = { isCancelled, started in
                        let player = try RumblePlayer.open(device)
                        defer { player.close() }
                        started()
                        _ = try player.play(compiled, options: options, gain: gain, isCancelled: isCancelled)
                    }
                case .sound(let name) where !HapticPatternAudio.hasAudio(loaded.pattern):
                    // Haptics only: streamed, each block made as the device takes it (the
                    // gain from HapticAudioRenderer.peakBound), so the sound begins at once.
                    let compiled = loaded.compiled, options = target.renderOptions
                    preview = { isCancelled, started in
                        device.mark(entered: FileWatcher.now())
                        var stream = HapticAudioRenderer.Streamed(compiled, options: options)
                        _ = try BufferPlayer.play(frameCount: stream.frameCount, channelCount: stream.channelCount,
                                                  sampleRate: options.sampleRate, device: name, isCancelled: isCancelled,
                                                  opened: { device.mark(opened: FileWatcher.now()) }, started: started) {
                            stream.render(into: $0)
                        }
                    }
                case .sound(let device):
                    // With the pattern's own sound (its waveforms and tones), made whole first.
                    let audio = CLIHaptics.previewAudio(loaded.pattern, loaded.compiled, file: file, options: target.renderOptions)
                    block += audio.lines
                    guard let buffer = audio.buffer else {
                        block[0] = "\(now)  \(file.terminalSafe): not played (its sound has errors)\(keeping)"
                        state.block = block
                        watched[k] = state
                        return
                    }
                    preview = { isCancelled, started in
                        _ = try BufferPlayer.play(buffer, device: device, isCancelled: isCancelled, started: started)
                    }
                }
                state.block = block
                state.goodSince = now
                watched[k] = state
                if let preview {
                    phases[k] = (began, readAt, FileWatcher.now())
                    playing = k
                    previews.play(id: k, loop: loop, preview)
                }
            }

            func show(_ changed: [Int]) {
                if terminal {
                    // The screen redrawn: every file's last state, then what plays.
                    var screen = "\u{1B}[H\u{1B}[2J"
                    for (k, state) in watched.enumerated() { screen += (k > 0 ? "\n" : "") + state.block.joined(separator: "\n") + "\n" }
                    screen += "\nwatching \(files.count == 1 ? files[0].terminalSafe : "\(files.count) files") for saves\(place.description); Ctrl-C stops\n"
                    print(screen, terminator: "")
                } else {
                    for k in changed { print(watched[k].block.joined(separator: "\n")) }
                }
            }

            for k in files.indices { reload(k) }
            show(Array(files.indices))
            if !terminal { print("watching \(files.count == 1 ? files[0].terminalSafe : "\(files.count) files") for saves\(place.description); Ctrl-C stops") }
            var savedAt: [Int: Double] = [:]
            while !Interrupt.isRequested {
                let changes = watcher.wait(timeoutMilliseconds: 50)
                var changed: [Int] = []
                for change in changes {
                    for k in files.indices where files[k] == change.path {
                        reload(k, removed: change.kind == .removed)
                        savedAt[k] = change.seenAt
                        changed.append(k)
                    }
                }
                if !changed.isEmpty { show(changed) }
                for event in previews.takeEvents() {
                    switch event {
                    case .started(let k, let at):
                        guard k == playing else { continue }
                        func ms(_ from: Double, _ to: Double) -> Int { Int((max(0, to - from) * 1000).rounded()) }
                        var after = ""
                        if let saved = savedAt[k] {
                            after = " (\(ms(saved, at)) ms after the save)"
                            // Where it went: the save's events gathered, the file read and
                            // compiled, the preview made ready, the last one stopped, the
                            // device opened, the first block made and written.
                            if let p = phases[k], let d = device.times(), d.entered >= p.handed {
                                let opened = d.opened ?? d.entered
                                after += " [gathering the save \(ms(saved, p.began)), reading and compiling \(ms(p.began, p.read)), "
                                    + "preparing \(ms(p.read, p.handed)), stopping the last \(ms(p.handed, d.entered)), "
                                    + "opening the device \(ms(d.entered, opened)), first write \(ms(opened, at)) ms]"
                            }
                        }
                        print("\(files[k].terminalSafe): playing\(place.description)\(after)")
                        savedAt[k] = nil
                    case .failed(let k, let message):
                        CLIOutput.error("\(files[k]): \(message)")
                    case .ended:
                        break
                    }
                }
                CLIOutput.flush()
            }
            previews.stop()
        }

        /// When the player's thread began the latest preview and opened its device.
        final class DeviceTimes: Sendable {
            private let state = Mutex<(entered: Double, opened: Double?)?>(nil)
            func mark(entered: Double) { state.withLock { $0 = (entered, nil) } }
            func mark(opened: Double) { state.withLock { $0?.opened = opened } }
            func times() -> (entered: Double, opened: Double?)? { state.withLock { $0 } }
        }

        /// Where the pattern plays.
        enum Place: CustomStringConvertible {
            case nowhere
            case rumble(String)
            case sound(String)
            var description: String {
                switch self {
                case .nowhere: ""
                case .rumble(let device): " on \(device.terminalSafe)"
                case .sound(let device): " as audio on \(device.terminalSafe)"
                }
            }
        }

        func place(_ settings: CabinSettings) -> Place {
            if let device = target.rumbleDevice { return .rumble(device) }
            if let device = target.haptics.hapticsDevice { return .sound(device) }
            if target.audio { return .sound(target.soundDevice(settings)) }
            return .nowhere
        }
    }
}
