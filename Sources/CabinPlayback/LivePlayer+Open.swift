import CabinIO
import CabinSession

extension LivePlayer {
    /// Sets up live playback in the one order that is right for every device: open the
    /// device first (it may not take the rate asked for: a `hw:` device at 44.1 kHz), then
    /// load the session at the rate the device plays, so sounds are resampled once, at load,
    /// and never by the device; then make the player on the open device.
    ///
    /// `load` gets the device's sample rate and period (use it as the block size). Throws
    /// `AudioDeviceError` when the device cannot be opened, else whatever `load` throws.
    ///
    /// ```swift
    /// let (player, _) = try LivePlayer.open(options: .init(device: "default")) { rate, period in
    ///     try SessionLoader.load(path: "drive.json", sampleRate: rate, maxBlockFrames: period,
    ///                            library: try SoundLibrary.standard(), progressive: true)
    /// }
    /// try player.start()
    /// player.waitUntilFinished()
    /// ```
    ///
    /// Thread: control thread.
    public static func open(options: Options,
                            load: (_ sampleRate: Double, _ periodFrames: Int) throws -> SessionLoader.Loaded)
        throws -> (player: LivePlayer, loaded: SessionLoader.Loaded) {
        let output = try options.backend.open(device: options.device, configuration: options.configuration)
        do {
            let loaded = try load(Double(output.negotiated.sampleRate), output.negotiated.periodFrames)
            let player = try LivePlayer(session: loaded.compiled, options: options, output: output)
            player.radio = loaded.radio
            if loaded.radio.canSwitch { player.stations = loaded.radio }
            return (player, loaded)
        } catch {
            output.close()
            throw error
        }
    }
}
