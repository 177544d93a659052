import CabinIO
import CabinOutput
import CabinSession

extension LivePlayer {
    /// The front door for the common case: resolves `session` (`SessionSource`), opens
    /// `device` and loads the session at the rate it plays, progressively, so sound starts
    /// as soon as the first second of each early sound is decoded (`LivePlayer.open`), and
    /// starts it. Events come through `events` (an `AsyncSequence` that ends after the
    /// session's end) or `poll()`; `decoding.takeFailures()` gives a sound found broken
    /// while it plays.
    ///
    /// ```swift
    /// let player = try LivePlayer.play(.preset("drive", options: ["minutes": "50"]))
    /// for await event in player.events { print(event) }
    /// ```
    ///
    /// `device` replaces `options.device`; everything else in `options` (a test's
    /// `backend`, `whenNoSoundDevice`, `startTime` …) is used as given. On a machine with no
    /// sound device at all, `.default` plays on the system clock with no sound
    /// (`Options.whenNoSoundDevice`). For more control (the load's libraries, compile
    /// options, a player not started yet) use `LivePlayer.open` with a load closure.
    ///
    /// Thread: control thread.
    public static func play(_ session: Session, device: Device = .default, options: Options = Options()) throws(PlayError) -> LivePlayer {
        let source: SessionSource
        do throws(SessionSource.Failure) { source = try session.resolved() } catch { throw .source(error) }
        var options = options
        options.device = device.name
        let player: LivePlayer
        do throws(OpenError<SessionLoader.Failure>) {
            let opened = try open(options: options) { (rate, period) throws(SessionLoader.Failure) -> SessionLoader.Loaded in
                try source.load(sampleRate: rate, maxBlockFrames: period, library: .found, progressive: true)
            }
            player = opened.player
        } catch {
            switch error {
            case .device(let error): throw .device(error)
            case .load(let error): throw .session(error)
            }
        }
        do throws(PlayerStartError) { try player.start() } catch { throw .start(error) }
        return player
    }

    /// What `play` plays.
    public enum Session: Sendable {
        /// A built-in preset (`SessionPresets`: `drive`, `pomodoro`, `ambient`, `breathing`,
        /// `quest`, `ui`) with its options by name (`["minutes": "50"]`).
        case preset(String, options: [String: String] = [:])
        /// A file: a session document (`-`: standard input), or a sound file played as a
        /// one-layer session (by its extension, else its first bytes).
        case file(String)
        /// A document made in code; its relative paths start from `folder` (nil: the Cabin
        /// package's folder, where the built-in sounds are).
        case document(SessionDocument, folder: String? = nil)

        /// The session, resolved for the loader.
        public func resolved() throws(SessionSource.Failure) -> SessionSource {
            switch self {
            case .preset(let name, let options): try SessionSource(file: nil, preset: name, presetOptions: options)
            case .file(let path): try SessionSource(file: path, preset: SessionPresets.defaultName, presetOptions: [:])
            case .document(let document, let folder): SessionSource(document: document, folder: folder)
            }
        }
    }

    /// Where `play` plays.
    public enum Device: Sendable, Equatable {
        /// The system's default output (the sound server); with no sound device at all, the
        /// system clock with no sound (`Options.whenNoSoundDevice`).
        case `default`
        /// A device by name: `hw:1`, `plughw:0,0`, `pipewire:NODE` (as `Options.device`).
        case named(String)
        /// No sound device: the session plays on the system clock with everything but the
        /// sound (events, marks, haptics), as `SilentClockBackend`.
        case none

        /// The name `Options.device` takes.
        public var name: String {
            switch self {
            case .default: "default"
            case .named(let name): name
            case .none: SilentClockBackend.device
            }
        }
    }

    /// Why `play` failed, with one case per thing an app can act on. Its description is the
    /// inner error's, in words that do not assume a command line.
    public enum PlayError: Error, Sendable, CustomStringConvertible {
        /// The device could not be opened (`kind`: `notFound`, `busy` …; `happened`).
        case device(AudioDeviceError)
        /// The session could not be resolved: no such preset, an option it rejects, a sound
        /// file whose header cannot be read.
        case source(SessionSource.Failure)
        /// The document has problems (`diagnostics`: rule, path, severity, message each),
        /// or could not be read.
        case session(SessionLoader.Failure)
        /// The player could not start (its render thread could not be created).
        case start(PlayerStartError)

        public var description: String {
            switch self {
            case .device(let error): error.description
            case .source(let error): error.description
            case .session(let error): error.description
            case .start(let error): error.description
            }
        }
    }
}
