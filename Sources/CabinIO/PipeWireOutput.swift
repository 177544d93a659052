import CCabinPipeWire
import CabinAudio
import CabinOutput
import Glibc

/// A PipeWire playback stream (`pw_stream` on a `pw_thread_loop`) that pulls: once started,
/// PipeWire's real-time data thread calls the render closure for every buffer, F32 (or S16,
/// converted) interleaved at the rate and channels asked. The stream says what plays
/// (`application.name` Cabin, `node.name` cabin, `media.type` Audio, `media.category`
/// Playback, `media.role` from the configuration) and asks for the period as its quantum
/// (`node.latency` = period/rate); a target is a sink's `node.name` (`target.object`), checked
/// against the sinks before the stream is made, and never swapped for another sink.
///
/// The corresponding C functions are `pw_context_connect`, `pw_stream_new`,
/// `pw_stream_connect`, `pw_stream_set_active`, `pw_stream_dequeue_buffer` and
/// `pw_stream_queue_buffer`, behind Cabin's shim (`CCabinPipeWire`).
///
/// Thread: `start`, `wait` and `close` from one controlling thread; the render closure on
/// PipeWire's data thread; `delayFrames` and `xrunCount` anywhere.
///
/// ```swift
/// let out = try PipeWireOutput(target: nil, configuration: OutputConfiguration())
/// try out.start { samples, frames in samples.update(repeating: 0) }
/// ```
public final class PipeWireOutput {
    private var stream: OpaquePointer?
    /// As opened: `pipewire` or `pipewire:NODE`, for messages.
    public let device: String
    /// The stream's format: the rate, channels and period asked for (PipeWire converts to its
    /// graph's), a buffer of `periodCount` periods (at least 2), float32 or s16 samples.
    public let negotiated: OutputFormat
    /// Xruns: callbacks that found no buffer to fill, and runs of graph cycles that went by
    /// without this stream (its callback was late, and the sink played silence), seen in the
    /// graph's clock (`pw_time.ticks`: a cycle starts where the last one this stream served
    /// ended, unless cycles were missed between).
    public var xrunCount: Int { stream.map { Int(cabin_pw_output_xruns($0)) } ?? 0 }
    /// The frames of the graph cycles missed (`xrunCount`'s second kind): time the sink
    /// played without this stream. Any thread.
    public var lostFrames: Int { stream.map { Int(cabin_pw_output_lost_frames($0)) } ?? 0 }
    private var renderBox: Unmanaged<RenderBox>?
    /// The name of PipeWire's real-time thread that calls the render (`top -H` shows it).
    public static let callbackThreadName = CABIN_PW_DATA_THREAD

    /// What the data thread calls: the closure and the channel count, retained by the
    /// output until it is closed.
    private final class RenderBox {
        let render: PullRender
        let channels: Int
        init(render: @escaping PullRender, channels: Int) {
            self.render = render
            self.channels = channels
        }
    }

    /// Opens a stream to `target` (a sink's `node.name`; nil: PipeWire's default sink) on the
    /// daemon at `remote` (its socket's path or name; nil: libpipewire's own choice,
    /// `$PIPEWIRE_REMOTE` in `$PIPEWIRE_RUNTIME_DIR` or `$XDG_RUNTIME_DIR`).
    public init(target: String?, remote: String? = nil, configuration: OutputConfiguration) throws(AudioDeviceError) {
        device = target.map { "pipewire:\($0)" } ?? "pipewire"
        let s16 = !configuration.formats.contains(.float32) && configuration.formats.contains(.s16)
        var error = cabin_pw_error()
        var maxFrames: UInt32 = 0
        let opened: OpaquePointer? = "Cabin".withCString { application in
            "cabin".withCString { node in
                configuration.mediaRole.rawValue.withCString { role in
                    func open(_ target: UnsafePointer<CChar>?, _ remote: UnsafePointer<CChar>?) -> OpaquePointer? {
                        var request = cabin_pw_stream_request(
                            remote: remote, target: target, application_name: application, node_name: node, media_role: role,
                            rate: UInt32(clamping: configuration.sampleRate), channels: UInt32(clamping: configuration.channelCount),
                            period_frames: UInt32(clamping: configuration.periodFrames), s16: s16 ? 1 : 0)
                        return cabin_pw_output_open(&request, &maxFrames, &error)
                    }
                    return withOptionalCString(target) { t in withOptionalCString(remote) { r in open(t, r) } }
                }
            }
        }
        guard let opened else { throw Self.error(error, device: device) }
        stream = opened
        negotiated = OutputFormat(sampleRate: configuration.sampleRate, channelCount: configuration.channelCount,
                                  periodFrames: configuration.periodFrames,
                                  bufferFrames: configuration.periodFrames * max(2, configuration.periodCount),
                                  format: s16 ? .s16 : .float32)
    }

    deinit { close() }

    /// Starts the callbacks: `render` runs on PipeWire's data thread until `close`.
    public func start(render: @escaping PullRender) throws(AudioDeviceError) {
        guard let stream else {
            throw AudioDeviceError(.failed, device: device, operation: "pw_stream_set_active", code: EBADF, detail: "closed")
        }
        let box = Unmanaged.passRetained(RenderBox(render: render, channels: negotiated.channelCount))
        renderBox?.release()
        renderBox = box
        var error = cabin_pw_error()
        guard cabin_pw_output_start(stream, { context, samples, frames in
            Unmanaged<RenderBox>.fromOpaque(context!)._withUnsafeGuaranteedRef { box in
                box.render(UnsafeMutableBufferPointer(start: samples, count: Int(frames) * box.channels), Int(frames))
            }
        }, box.toOpaque(), &error) == 0 else { throw Self.error(error, device: device) }
    }

    /// Waits until the stream fails (thrown: the daemon went away, the stream was
    /// disconnected), `extraDescriptor` is readable, or the timeout.
    public func wait(extraDescriptor: Int32, timeoutMilliseconds: Int32) throws(AudioDeviceError) -> OutputWaitResult {
        guard let stream else { return .timeout }
        var error = cabin_pw_error()
        switch cabin_pw_output_wait(stream, extraDescriptor, timeoutMilliseconds, &error) {
        case 1: throw Self.error(error, device: device)
        case 2: return .wakeup
        default: return .timeout
        }
    }

    /// Asks for callbacks of `frames` from now on, while playing (a latency change): the
    /// stream's `node.latency` becomes frames/rate, as at open, and the daemon recalculates
    /// the graph's quantum (clamped to its `clock.min-quantum`…`clock.max-quantum`; another
    /// stream asking for less keeps it lower). `negotiated` keeps what was opened, its
    /// `periodFrames` still the largest block a callback asks for. From the controlling
    /// thread, not the render closure.
    public func changePeriod(frames: Int) throws(AudioDeviceError) {
        guard let stream else {
            throw AudioDeviceError(.failed, device: device, operation: "node.latency", code: EBADF, detail: "closed")
        }
        var error = cabin_pw_error()
        guard cabin_pw_output_set_period(stream, UInt32(clamping: max(0, frames)), &error) == 0 else {
            throw Self.error(error, device: device)
        }
    }

    /// Whether `changePeriod` can change the callbacks' size while playing: yes.
    public var changesPeriodWhilePlaying: Bool { true }

    /// Frames between what the next callback renders and what is heard (the graph's delay to
    /// the sink, the resampler's, what is queued), once the stream has run a cycle.
    public func delayFrames() -> Int? {
        guard let stream else { return nil }
        let delay = cabin_pw_output_delay(stream)
        return delay < 0 ? nil : Int(delay)
    }

    /// Stops the callbacks (none runs once it returns) and disconnects. Idempotent.
    public func close() {
        guard let stream else { return }
        cabin_pw_output_close(stream)
        self.stream = nil
        renderBox?.release()
        renderBox = nil
    }

    static func error(_ e: cabin_pw_error, device: String) -> AudioDeviceError {
        let kinds: [AudioDeviceFailure] = [.notFound, .busy, .permissionDenied, .unsupportedConfiguration, .disconnected, .failed]
        var e = e
        let operation = withUnsafeBytes(of: &e.operation) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        let detail = withUnsafeBytes(of: &e.detail) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        return AudioDeviceError(kinds.indices.contains(Int(e.kind)) ? kinds[Int(e.kind)] : .failed, device: device,
                                operation: operation, code: e.code, detail: detail.singleLine())
    }
}

/// PipeWire's sinks and daemon, for the backend's listing and the default device's choice.
public enum PipeWireSinks {
    /// Whether a PipeWire daemon listens at `remote` (nil: where libpipewire would connect):
    /// one `connect(2)`.
    public static func daemonAnswers(remote: String? = nil) -> Bool {
        withOptionalCString(remote) { cabin_pw_daemon_answers($0) != 0 }
    }

    /// Every `Audio/Sink` node: its `node.name` and `node.description`. Empty with no daemon.
    public static func list(remote: String? = nil) -> [(name: String, description: String)] {
        guard daemonAnswers(remote: remote) else { return [] }
        final class Found { var sinks: [(name: String, description: String)] = [] }
        let found = Found()
        var error = cabin_pw_error()
        _ = withOptionalCString(remote) { remote in
            cabin_pw_list_sinks(remote, { context, name, description in
                let found = Unmanaged<Found>.fromOpaque(context!).takeUnretainedValue()
                found.sinks.append((String(cString: name!), String(cString: description!)))
            }, Unmanaged.passUnretained(found).toOpaque(), &error)
        }
        return found.sinks
    }
}

private func withOptionalCString<R>(_ text: String?, _ body: (UnsafePointer<CChar>?) -> R) -> R {
    guard let text else { return body(nil) }
    return text.withCString { body($0) }
}
