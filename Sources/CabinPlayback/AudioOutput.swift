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
    /// Cabin's backends: ALSA (bare names and `alsa:NAME`), PipeWire (`pipewire[:NODE]`, and
    /// the plain `default` when its daemon answers) and the silent clock (`none`).
    public static let standard = OutputRegistry(entries: [
        Entry(scheme: "alsa", summary: "ALSA devices (as 'aplay -L' lists them); a bare name is ALSA's",
              defaultDevice: "default") { ALSABackend() },
        Entry(scheme: PipeWireBackend.scheme, summary: "PipeWire sinks by node name (pipewire:NODE); pipewire alone is its default sink",
              defaultDevice: PipeWireBackend.defaultSink, claimsDefault: { PipeWireSinks.daemonAnswers() }) { PipeWireBackend() },
        Entry(scheme: SilentClockBackend.device, summary: "no sound: the session plays on the system clock",
              defaultDevice: SilentClockBackend.device) { SilentClockBackend() },
    ], bareScheme: "alsa")
}
