import CabinIO
import CabinOutput

extension PipeWireOutput: PullOutput {}

/// PipeWire's sinks (`PipeWireOutput`, a `pw_stream` that pulls from its real-time thread)
/// on the monotonic clock: `-D pipewire` (the default sink) or `pipewire:NODE` (a sink by
/// its `node.name`, as `cabin devices` lists them).
///
/// Thread: any thread.
public final class PipeWireBackend: AudioOutputBackend {
    /// The scheme of its device names: `pipewire` (the default sink) or `pipewire:NODE`.
    public static let scheme = "pipewire"
    /// The name that means PipeWire's default sink (no `target.object`).
    public static let defaultSink = "default"

    /// The daemon's socket (a path, or a name in the runtime folder); nil: libpipewire's own
    /// choice (`$PIPEWIRE_REMOTE`, else `pipewire-0`, in `$PIPEWIRE_RUNTIME_DIR` or
    /// `$XDG_RUNTIME_DIR`).
    public let remote: String?

    /// A backend talking to the daemon at `remote` (nil: libpipewire's own choice, see
    /// `remote`); nothing is connected until `devices()` or `open`.
    public init(remote: String? = nil) {
        self.remote = remote
    }

    public func devices() -> [OutputDevice] {
        guard PipeWireSinks.daemonAnswers(remote: remote) else { return [] }
        let sinks = PipeWireSinks.list(remote: remote)
        return [OutputDevice(name: Self.scheme, description: "PipeWire's default sink", scheme: Self.scheme)]
            + sinks.map { OutputDevice(name: "\(Self.scheme):\($0.name)", description: $0.description, scheme: Self.scheme) }
    }

    public func open(device: String, configuration: OutputConfiguration) throws(AudioDeviceError) -> OpenedOutput {
        .pull(try PipeWireOutput(target: device == Self.defaultSink ? nil : device, remote: remote, configuration: configuration))
    }

    public func now() -> Double { MonotonicClock.seconds() }

    public func sleep(seconds: Double, wakeupDescriptor: Int32) -> Bool {
        EventFD.waitReadable(wakeupDescriptor, timeoutMilliseconds: Int32(seconds * 1000))
    }
}
