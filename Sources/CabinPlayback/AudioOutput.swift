import CabinIO
import CabinOutput

extension PCMOutput: AudioOutput {}

/// ALSA devices (`PCMOutput`, non-blocking, pushed into) on the monotonic clock: a bare
/// `-D` name or `alsa:NAME`.
///
/// Thread: any thread.
public final class ALSABackend: AudioOutputBackend {
    /// The ALSA backend; it keeps no state (each `open` opens a new PCM).
    public init() {}

    public func devices() -> [OutputDevice] {
        ALSADevices.playback().map { OutputDevice(name: $0.name, description: $0.description, scheme: "alsa") }
    }

    public func open(device: String, configuration: OutputConfiguration) throws(AudioDeviceError) -> OpenedOutput {
        .push(try PCMOutput(device: device, configuration: configuration, nonBlocking: true))
    }

    public func now() -> Double { MonotonicClock.seconds() }

    public func sleep(seconds: Double, wakeupDescriptor: Int32) -> Bool {
        EventFD.waitReadable(wakeupDescriptor, timeoutMilliseconds: Int32(seconds * 1000))
    }
}

extension OutputRegistry {
    /// Cabin's backends: ALSA (bare names and `alsa:NAME`), PipeWire (`pipewire[:NODE]`) and
    /// the silent clock (`none`).
    public static let standard = OutputRegistry(entries: [
        Entry(scheme: "alsa", summary: "ALSA devices (as 'aplay -L' lists them); a bare name is ALSA's",
              defaultDevice: "default") { ALSABackend() },
        Entry(scheme: PipeWireBackend.scheme, summary: "PipeWire sinks by node name (pipewire:NODE); pipewire alone is its default sink",
              defaultDevice: PipeWireBackend.defaultSink) { PipeWireBackend() },
        Entry(scheme: SilentClockBackend.device, summary: "no sound: the session plays on the system clock",
              defaultDevice: SilentClockBackend.device) { SilentClockBackend() },
    ], bareScheme: "alsa")
}

extension OutputRegistry {
    /// The `-D` value when none is given: `default`.
    public static let defaultDevice = "default"

    /// `resolve`, with the default device chosen: `default` (not `alsa:default`) is PipeWire's
    /// default sink when a PipeWire daemon answers (one `connect(2)`), else ALSA's `default`
    /// (and `LivePlayer.open` falls back to the silent clock when ALSA has no sound device
    /// either). `spec` is what was chosen, as `-D` would name it (`pipewire` or `default`):
    /// what the `started` event and the first line of `cabin play` say.
    public func resolveChoosingDefault(_ spec: String) -> (entry: Entry, device: String, spec: String) {
        if spec == Self.defaultDevice, entries.contains(where: { $0.scheme == PipeWireBackend.scheme }),
           PipeWireSinks.daemonAnswers() {
            let resolved = resolve(PipeWireBackend.scheme)
            return (resolved.entry, resolved.device, PipeWireBackend.scheme)
        }
        let resolved = resolve(spec)
        return (resolved.entry, resolved.device, spec)
    }
}
