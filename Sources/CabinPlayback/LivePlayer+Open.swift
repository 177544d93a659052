import CabinIO
import CabinOutput
import CabinSession

extension LivePlayer {
    /// Sets up live playback in the one order that is right for every device: open the
    /// device first (it may not take the rate asked for: a `hw:` device at 44.1 kHz), then
    /// load the session at the rate the device plays, so sounds are resampled once, at load,
    /// and never by the device; then make the player on the open device.
    ///
    /// `load` gets the device's sample rate and period (use it as the block size). Throws
    /// `OpenError.device` when the device cannot be opened (or will not play at the rate
    /// the session was loaded at), `OpenError.load` with whatever `load` threw; the device
    /// is closed again either way. On a machine with no sound device at all, `"default"`
    /// plays on the system clock with no sound instead (`Options.whenNoSoundDevice`; the
    /// `started` event's `silentReason` says so, and `player.options.silentReason`).
    ///
    /// ```swift
    /// do throws(LivePlayer.OpenError<any Error>) {
    ///     let (player, _) = try LivePlayer.open(options: .init(device: "default")) { rate, period in
    ///         try SessionLoader.load(path: "drive.json", sampleRate: rate, maxBlockFrames: period, progressive: true)
    ///     }
    ///     try? player.start()
    ///     player.waitUntilFinished()
    /// } catch {
    ///     switch error {
    ///     case .device(let error): print(error.kind, error.happened)  // notFound, busy …; what failed, without advice
    ///     case .load(let error): print(error)                         // SessionLoader.Failure: every problem, located
    ///     }
    /// }
    /// ```
    ///
    /// Thread: control thread.
    public static func open<LoadError: Error>(options: Options,
                                              load: (_ sampleRate: Double, _ periodFrames: Int) throws(LoadError) -> SessionLoader.Loaded)
        throws(OpenError<LoadError>) -> (player: LivePlayer, loaded: SessionLoader.Loaded) {
        var options = options
        options.pinOutput()
        // "none" asks for the silent clock (`cabin play -D none` says so itself first,
        // keeping ALSA for a haptics device).
        if options.resolvedOutput.scheme == SilentClockBackend.device {
            options.playSilently(because: "the device is \"\(SilentClockBackend.device)\"")
        }
        let output: OpenedOutput
        do {
            let resolved = options.resolvedOutput
            output = try resolved.backend.open(device: resolved.device, configuration: options.configuration)
        } catch {
            let resolved = options.resolvedOutput
            guard options.whenNoSoundDevice == .playSilently, resolved.device == "default", resolved.backend is ALSABackend,
                  !ALSADevices.hasSoundDevice() else { throw .device(error) }
            options.playSilently(because: noSoundDevice)
            let silent = options.resolvedOutput
            do { output = try silent.backend.open(device: silent.device, configuration: options.configuration) } catch {
                throw .device(error)
            }
        }
        let loaded: SessionLoader.Loaded
        do { loaded = try load(Double(output.negotiated.sampleRate), output.negotiated.periodFrames) } catch {
            output.close()
            throw .load(error)
        }
        do {
            let player = try LivePlayer(session: loaded.compiled, options: options, opened: output)
            player.radio = loaded.radio
            player.decoding = loaded.decoding
            if loaded.radio.canSwitch { player.stations = loaded.radio }
            return (player, loaded)
        } catch {
            output.close()
            throw .device(error)
        }
    }

    /// Why `open` failed: the device (`AudioDeviceError`: its `kind` to act on, `happened`
    /// to show, `description` with advice for a person at a terminal), or the session
    /// (what the `load` closure threw). Its description is the inner error's.
    public enum OpenError<LoadError: Error>: Error, CustomStringConvertible {
        /// The device could not be opened, or would not play at the rate the session was
        /// loaded at.
        case device(AudioDeviceError)
        /// What the `load` closure threw.
        case load(LoadError)

        public var description: String {
            switch self {
            case .device(let error): error.description
            case .load(let error): "\(error)"
            }
        }
    }

    /// The fallback's reason, as the `started` event gives it.
    public static let noSoundDevice = "no sound device (no sound card, no sound server)"
}
