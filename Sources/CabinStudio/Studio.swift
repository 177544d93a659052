import CabinAudio
import CabinHaptics
import CabinIO
import CabinJSON
import CabinPlayback
import FoundationEssentials
import Glibc
import Synchronization

/// `cabin studio`: patterns read, compiled and rendered as audio on the control thread,
/// again on every save, and served to a local page (`serve`). See CabinStudio.swift.
///
/// Thread: `loadAll`, `reload` and `watch` on one control thread; `serve` from a task;
/// `feed` any thread.
public final class Studio: Sendable {
    /// How the patterns are read and heard.
    public struct Options: Sendable {
        /// Lenient or strict, and how AHAP curve times are read (as `haptics show`).
        public var read: HapticReadOptions
        /// The user's haptics strength the patterns are compiled at (`strong`: as designed).
        public var strength: HapticStrength
        /// The sound: mono (the haptics as audio with the pattern's own sound added), as
        /// `haptics render` makes it.
        public var audio: HapticAudioOptions
        /// Only errors in the diagnostics list (as `--quiet`).
        public var quiet: Bool
        /// The page's device buttons: this machine's rumble pad and DualSense, or why none.
        public var devices: StudioDevices
        /// A session whose lanes the page shows above the patterns, or nil.
        public var session: StudioSession?

        /// Options as `haptics show` reads and renders by default, unless given.
        public init(read: HapticReadOptions = HapticReadOptions(), strength: HapticStrength = .strong,
                    audio: HapticAudioOptions = HapticAudioOptions(), quiet: Bool = false, devices: StudioDevices = .none,
                    session: StudioSession? = nil) {
            self.session = session
            self.read = read
            self.strength = strength
            self.audio = audio
            self.quiet = quiet
            self.devices = devices
        }
    }

    /// What a reload did, for the command's lines.
    public struct Report: Sendable {
        /// The pattern's state after the reload (read, compiled, or why not).
        public var pattern: StudioPattern
        /// When it was published to the pages (`CLOCK_MONOTONIC` seconds, as `FileWatcher`'s).
        public var publishedAt: Double
        /// When the save it follows was seen, for a reload after a save.
        public var savedAt: Double?
    }

    /// The pattern files shown, in the page's order; an index into it names a pattern.
    public let files: [String]
    /// How the patterns are read and heard, and the page's devices and session.
    public let options: Options
    /// The secret in the page's address (`/TOKEN/`); a request without it is refused.
    public let token: StudioToken
    /// What the server sends: each pattern's JSON and WAV, and the pages' event streams.
    public let feed: StudioFeed
    private let patterns: Mutex<[StudioPattern]>
    /// The devices playing now (one pattern at a time on each).
    private let playing = Mutex<Set<String>>([])

    /// A studio for `files` (none read yet: `loadAll()`), behind `token`.
    public init(files: [String], options: Options = Options(), token: StudioToken = .random()) {
        self.files = files
        self.options = options
        self.token = token
        feed = StudioFeed(count: files.count)
        patterns = Mutex(files.indices.map { StudioPattern(index: $0, name: files[$0]) })
    }

    /// Reads every file once (before serving, so the first page has them all).
    @discardableResult
    public func loadAll() -> [Report] { files.indices.map { reload($0) } }

    /// Reads file `index` again (`removed`: it was just removed), and publishes its new state.
    @discardableResult
    public func reload(_ index: Int, removed: Bool = false, savedAt: Double? = nil) -> Report {
        let file = files[index]
        var pattern = patterns.withLock { $0[index] }
        pattern.generation += 1
        pattern.diagnostics = []
        pattern.failure = nil
        if removed || access(file, F_OK) != 0 {
            pattern.status = .missing
            pattern.source = nil
        } else {
            load(file, into: &pattern)
        }
        let json = pattern.json.serialized(pretty: false)
        let wav = pattern.good?.audio.map(StudioPattern.wav)
        patterns.withLock { $0[index] = pattern }
        feed.publish(index: index, json: json, wav: wav)
        return Report(pattern: pattern, publishedAt: FileWatcher.now(), savedAt: savedAt)
    }

    private func load(_ file: String, into pattern: inout StudioPattern) {
        let read = HapticPatternFile.read(file, options: options.read, strength: options.strength)
        pattern.source = read.bytes.map { String(decoding: $0, as: UTF8.self) }
        if let failure = read.failure {
            pattern.status = .unreadable
            pattern.failure = failure
            return
        }
        var diagnostics = read.diagnostics
        defer { pattern.diagnostics = Diagnostics.list(diagnostics, quiet: options.quiet) }
        guard let source = read.pattern, let compiled = read.compiled else {
            pattern.status = .errors
            return
        }
        let audio = HapticPatternFile.previewAudio(source, compiled, file: file, options: options.audio)
        diagnostics.append(contentsOf: audio.diagnostics)
        pattern.status = audio.buffer == nil ? .soundErrors : .ok
        // The DualSense's 4 channels, made here (not when its button is pressed) when there is one.
        var layout = options.audio
        layout.layout = .dualSense
        let dualsense = audio.buffer != nil && options.devices.dualsense.device != nil
            ? HapticPatternFile.previewAudio(source, compiled, file: file, options: layout).buffer : nil
        pattern.good = StudioPattern.Good(generation: pattern.generation, readAt: TimeOfDay.now(),
                                          summary: HapticPatternFile.summary(source, compiled), compiled: compiled, audio: audio.buffer,
                                          dualsense: dualsense)
    }

    /// Plays pattern `index`'s drawn version (the last good one) on the `kind` device, as
    /// `haptics play --rumble` or `--dualsense` does, and waits for it to end: what the page
    /// says after (`played 0.302 s on …`), and whether it played. One pattern at a time on
    /// each device: a press while it plays is refused. Blocking: call it off the control
    /// thread and off the server's event loops.
    public func play(_ index: Int, on kind: StudioDevices.Kind) -> (played: Bool, message: String) {
        let target = options.devices[kind]
        guard let device = target.device else { return (false, target.detail) }
        guard files.indices.contains(index), let good = patterns.withLock({ $0[index].good }) else {
            return (false, "nothing to play: the pattern has not loaded")
        }
        let busy = playing.withLock { busy -> Bool in
            guard !busy.contains(device) else { return true }
            busy.insert(device)
            return false
        }
        if busy { return (false, "\(target.detail) is playing another pattern") }
        defer { _ = playing.withLock { $0.remove(device) } }
        let name = files[index]
        switch kind {
        case .rumble:
            do {
                let player = try RumblePlayer.open(device)
                defer { player.close() }
                _ = try player.play(good.compiled, options: RumblePlanOptions(mapping: options.devices.mapping))
                return (true, "played \(NumberText.decimals(good.compiled.endTime, 3)) s of \(name) on \(player.info.name) (\(device))")
            } catch {
                return (false, "cannot play on \(device): \(error)")
            }
        case .dualsense:
            guard let buffer = good.dualsense else { return (false, "nothing to play: the pattern has no sound to send") }
            do {
                _ = try BufferPlayer.play(buffer, device: device)
                return (true, "played \(NumberText.decimals(buffer.duration, 3)) s of \(name) on the DualSense (\(device))")
            } catch {
                return (false, "cannot play on \(device): \(error)")
            }
        }
    }

    /// Waits for saves of the files (inotify, `FileWatcher`) and reloads each one saved or
    /// removed, until `stop` says so (asked at least every 50 ms); `report` is called after
    /// each reload, `each` at every turn (at least every 50 ms: the control socket of a
    /// session playing here is served from it). Throws only when the files cannot be watched
    /// (a missing folder).
    public func watch(until stop: () -> Bool, each: () -> Void = {}, report: (Report) -> Void) throws(FileWatcherError) {
        let watcher = try FileWatcher(paths: files)
        while !stop() {
            each()
            for change in watcher.wait(timeoutMilliseconds: 50) {
                for index in files.indices where files[index] == change.path {
                    report(reload(index, removed: change.kind == .removed, savedAt: change.seenAt))
                }
            }
        }
    }

    /// Ends the pages' event streams (so the server can stop).
    public func close() { feed.close() }
}

extension Diagnostics {
    /// The diagnostics in document order, without warnings when `quiet`.
    static func list(_ diagnostics: Diagnostics, quiet: Bool) -> [Diagnostic] {
        diagnostics.sortedByLocation.filter { !quiet || $0.isError }
    }
}
