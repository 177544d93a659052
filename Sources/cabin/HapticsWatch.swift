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
            let watcher: FileWatcher
            do { watcher = try FileWatcher(paths: files) } catch {
                CLIOutput.error(error)
                throw ExitCode.failure
            }
            Interrupt.install()
            target.warnDeprecated()
            let session = WatchSession(self, strength: settings.hapticStrength.value, place: place(settings))
            session.start()
            while !Interrupt.isRequested {
                session.reload(watcher.wait(timeoutMilliseconds: 50))
                session.report(session.previews.takeEvents())
                CLIOutput.flush()
            }
            session.previews.stop()
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

/// One run of `haptics watch`: every file's last state, the preview playing, and how long
/// each reload took, printed as blocks (a terminal's screen redrawn) and `playing` lines.
///
/// Thread: the command's thread (the previews play on the player's own).
final class WatchSession {
    let command: HapticsCommand.Watch
    let strength: HapticStrength
    let place: HapticsCommand.Watch.Place
    let terminal = isatty(STDOUT_FILENO) == 1
    var files: [String] { command.files }
    var watched: [HapticsCommand.Watch.Watched]
    let previews = PreviewPlayer()
    /// The file whose preview plays now.
    var playing: Int?
    /// Where a reload's time goes: when it began, when the file was read and compiled, when
    /// its preview was handed to the player (this thread); the player's thread marks when
    /// it began the preview (the last one stopped) and its device was open.
    var phases: [Int: (began: Double, read: Double, handed: Double)] = [:]
    let device = HapticsCommand.Watch.DeviceTimes()
    /// When each file's last save was seen, until its preview begins.
    var savedAt: [Int: Double] = [:]

    init(_ command: HapticsCommand.Watch, strength: HapticStrength, place: HapticsCommand.Watch.Place) {
        self.command = command
        self.strength = strength
        self.place = place
        watched = Array(repeating: HapticsCommand.Watch.Watched(), count: command.files.count)
    }

    /// Every file read, shown and (the last) played, and what is watched.
    func start() {
        for k in files.indices { reload(k) }
        show(Array(files.indices))
        if !terminal { print("watching \(watchedFiles) for saves\(place.description); Ctrl-C stops") }
    }

    var watchedFiles: String { files.count == 1 ? files[0].terminalSafe : "\(files.count) files" }

    /// Each file saved or removed read again, and shown.
    func reload(_ changes: [FileWatcher.Change]) {
        var changed: [Int] = []
        for change in changes {
            for k in files.indices where files[k] == change.path {
                reload(k, removed: change.kind == .removed)
                savedAt[k] = change.seenAt
                changed.append(k)
            }
        }
        if !changed.isEmpty { show(changed) }
    }

    /// Reads file `k` again; plays it when it can be and somewhere is named.
    func reload(_ k: Int, removed: Bool = false) {
        let file = files[k]
        let began = FileWatcher.now()
        let now = TimeOfDay.now()
        let keeping = watched[k].goodSince.map { "; the version of \($0) plays on" } ?? ""
        if removed || !FileManager.default.fileExists(atPath: file) {
            watched[k].block = ["\(now)  \(file.terminalSafe): \(removed ? "removed" : "not there"); waiting for it\(keeping)"]
            return
        }
        let read = CLIHaptics.read(file, strict: command.strict, reading: command.reading.curveTimes, quiet: command.reading.quiet,
                                   strength: strength)
        guard let loaded = read.loaded else {
            let errors = read.lines.filter { $0.contains(": error: ") }.count
            watched[k].block = ["\(now)  \(file.terminalSafe): not loaded (\(errors == 1 ? "1 error" : "\(max(errors, 1)) errors"))\(keeping)"] + read.lines
            return
        }
        let readAt = FileWatcher.now()
        var block = ["\(now)  \(file.terminalSafe): \(CLIHaptics.summary(loaded.pattern, loaded.compiled))"] + read.lines
        block += HapticPreview.terminal(loaded.compiled, width: command.width).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        // The sound for --audio and --dualsense, made now: a waveform's error keeps the last good version.
        let (preview, lines) = self.preview(loaded, file: file)
        block += lines
        if preview == nil, case .sound = place {
            block[0] = "\(now)  \(file.terminalSafe): not played (its sound has errors)\(keeping)"
            watched[k].block = block
            return
        }
        watched[k] = HapticsCommand.Watch.Watched(block: block, goodSince: now)
        if let preview {
            phases[k] = (began, readAt, FileWatcher.now())
            playing = k
            previews.play(id: k, loop: command.loop, preview)
        }
    }

    /// How `loaded` plays where it is to play (nil: nowhere, or its sound has errors), and
    /// the lines its sound's diagnostics add.
    func preview(_ loaded: (pattern: HapticPattern, compiled: CompiledHaptics), file: String) -> (PreviewPlayer.Preview?, [String]) {
        let target = command.target
        switch place {
        case .nowhere:
            return (nil, [])
        case .rumble(let device):
            let compiled = loaded.compiled, options = RumblePlanOptions(mapping: target.mapping), gain = target.gain
            return ({ isCancelled, started in
                let player = try RumblePlayer.open(device)
                defer { player.close() }
                started()
                _ = try player.play(compiled, options: options, gain: gain, isCancelled: isCancelled)
            }, [])
        case .sound(let name) where !HapticPatternAudio.hasAudio(loaded.pattern):
            // Haptics only: streamed, each block made as the device takes it (the
            // gain from HapticAudioRenderer.peakBound), so the sound begins at once.
            let compiled = loaded.compiled, options = target.renderOptions, device = self.device
            return ({ isCancelled, started in
                device.mark(entered: FileWatcher.now())
                var stream = HapticAudioRenderer.Streamed(compiled, options: options)
                _ = try BufferPlayer.play(frameCount: stream.frameCount, channelCount: stream.channelCount,
                                          sampleRate: options.sampleRate, device: name, isCancelled: isCancelled,
                                          opened: { device.mark(opened: FileWatcher.now()) }, started: started) {
                    stream.render(into: $0)
                }
            }, [])
        case .sound(let device):
            // With the pattern's own sound (its waveforms and tones), made whole first.
            let audio = CLIHaptics.previewAudio(loaded.pattern, loaded.compiled, file: file, options: target.renderOptions)
            guard let buffer = audio.buffer else { return (nil, audio.lines) }
            return ({ isCancelled, started in
                _ = try BufferPlayer.play(buffer, device: device, isCancelled: isCancelled, started: started)
            }, audio.lines)
        }
    }

    /// The files `changed` shown: in a terminal the screen redrawn (every file's last state,
    /// then what plays); piped, each changed file's block.
    func show(_ changed: [Int]) {
        if terminal {
            var screen = "\u{1B}[H\u{1B}[2J"
            for (k, state) in watched.enumerated() { screen += (k > 0 ? "\n" : "") + state.block.joined(separator: "\n") + "\n" }
            screen += "\nwatching \(watchedFiles) for saves\(place.description); Ctrl-C stops\n"
            print(screen, terminator: "")
        } else {
            for k in changed { print(watched[k].block.joined(separator: "\n")) }
        }
    }

    /// The previews' events: a `playing` line for the one that began (with how long after
    /// the save, and where the time went), an error for one that failed.
    func report(_ events: [PreviewPlayer.Event]) {
        for event in events {
            switch event {
            case .started(let k, let at):
                guard k == playing else { continue }
                print("\(files[k].terminalSafe): playing\(place.description)\(afterSave(k, startedAt: at))")
                savedAt[k] = nil
            case .failed(let k, let message):
                CLIOutput.error("\(files[k]): \(message)")
            case .ended:
                break
            }
        }
    }

    /// ` (N ms after the save)` and where it went — the save's events gathered, the file read
    /// and compiled, the preview made ready, the last one stopped, the device opened, the
    /// first block made and written — or nothing when no save is waiting.
    func afterSave(_ k: Int, startedAt at: Double) -> String {
        func ms(_ from: Double, _ to: Double) -> Int { Int((max(0, to - from) * 1000).rounded()) }
        guard let saved = savedAt[k] else { return "" }
        var after = " (\(ms(saved, at)) ms after the save)"
        if let p = phases[k], let d = device.times(), d.entered >= p.handed {
            let opened = d.opened ?? d.entered
            after += " [gathering the save \(ms(saved, p.began)), reading and compiling \(ms(p.began, p.read)), "
                + "preparing \(ms(p.read, p.handed)), stopping the last \(ms(p.handed, d.entered)), "
                + "opening the device \(ms(d.entered, opened)), first write \(ms(opened, at)) ms]"
        }
        return after
    }
}
