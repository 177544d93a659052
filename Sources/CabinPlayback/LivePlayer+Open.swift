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
    /// `AudioDeviceError` when the device cannot be opened, else whatever `load` throws.
    /// On a machine with no sound device at all, `"default"` plays on the system clock with
    /// no sound instead (`Options.whenNoSoundDevice`; the `started` event's `silentReason`
    /// says so, and `player.options.silentReason`).
    ///
    /// ```swift
    /// let (player, _) = try LivePlayer.open(options: .init(device: "default")) { rate, period in
    ///     try SessionLoader.load(path: "drive.json", sampleRate: rate, maxBlockFrames: period, progressive: true)
    /// }
    /// try player.start()
    /// player.waitUntilFinished()
    /// ```
    ///
    /// Thread: control thread.
    public static func open(options: Options,
                            load: (_ sampleRate: Double, _ periodFrames: Int) throws -> SessionLoader.Loaded)
        throws -> (player: LivePlayer, loaded: SessionLoader.Loaded) {
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
                  !ALSADevices.hasSoundDevice() else { throw error }
            options.playSilently(because: noSoundDevice)
            let silent = options.resolvedOutput
            output = try silent.backend.open(device: silent.device, configuration: options.configuration)
        }
        do {
            let loaded = try load(Double(output.negotiated.sampleRate), output.negotiated.periodFrames)
            let player = try LivePlayer(session: loaded.compiled, options: options, opened: output)
            player.radio = loaded.radio
            if loaded.radio.canSwitch { player.stations = loaded.radio }
            return (player, loaded)
        } catch {
            output.close()
            throw error
        }
    }

    /// The fallback's reason, as the `started` event gives it.
    public static let noSoundDevice = "no sound device (no sound card, no sound server)"
}
