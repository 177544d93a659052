import CabinAudio
import CabinHaptics
import CabinIO
import CabinOutput
import CabinSession
import Glibc
import Synchronization

/// The session's haptic track played live on channels 3–4 of a 4-channel sound device — a
/// DualSense's USB audio, whose voice-coil actuators are those two channels — while the
/// session plays on its own device (`cabin play --haptics-device DEVICE`).
///
/// The render loop renders the haptic track (``SessionHapticTrack``, the same signal as
/// `cabin render --haptics`) for exactly the session frames of every period it renders and
/// writes them beside it, so frame N of the haptics device is frame N of the session: the
/// two devices are prefilled and started together, a pause writes silence to both, a seek
/// or an underrun's skip moves both. Channels 1–2 carry silence. The haptics follow the
/// running session as the rumble does (``SessionHapticTrack/init(following:options:)``): the
/// layers' maps read the parameters as the mixer has them after each period (`+`/`−`,
/// `cabin ctl set`, a `leave-focus` fall), and `leave-focus` starts its pattern at the frame
/// it was sent; with nothing live, the output is the offline track.
///
/// The haptics device is written without blocking; what it cannot take is dropped and
/// counted (``droppedFrames``), and a failure of its own (unplugged) stops only the
/// haptics (``failure``), never the session.
///
/// Thread: made on the control thread (allocates); `process…` and `start` on the render
/// thread; the counters from any thread.
final class HapticsDeviceOutput: @unchecked Sendable {
    /// Channels of the device: a DualSense's four (1–2 audio, 3–4 haptics).
    static let channelCount = 4
    let output: any AudioOutput
    let track: SessionHapticTrack
    private let mono: UnsafeMutableBufferPointer<Float>
    private let frames: UnsafeMutableBufferPointer<Float>
    let dropped = Atomic<Int64>(0)
    let failed = Atomic<Bool>(false)

    /// Opens `device` for 4 channels at the session's rate and period.
    init(device: String, session: CompiledSession, options: HapticAudioOptions, like main: OutputFormat,
         backend: any AudioOutputBackend) throws(AudioDeviceError) {
        let configuration = OutputConfiguration(sampleRate: Int(session.sampleRate), channelCount: Self.channelCount,
                                             periodFrames: main.periodFrames,
                                             periodCount: max(2, main.bufferFrames / max(1, main.periodFrames)))
        let opened = try backend.open(device: device, configuration: configuration)
        guard case .push(let output) = opened else {
            opened.close()
            throw AudioDeviceError(.unsupportedConfiguration, device: device, operation: "open", code: EINVAL,
                                   detail: "a haptics device is written beside the session's periods: its backend must take pushed periods")
        }
        let got = output.negotiated
        guard got.channelCount == Self.channelCount, got.sampleRate == Int(session.sampleRate) else {
            output.close()
            throw AudioDeviceError(.unsupportedConfiguration, device: device, operation: "snd_pcm_hw_params", code: EINVAL,
                                   detail: "a haptics device plays 4 channels (haptics on 3–4) at the session's \(Int(session.sampleRate)) Hz; it took \(got.channelCount) at \(got.sampleRate) Hz")
        }
        self.output = output
        track = SessionHapticTrack(following: session, options: options)
        let capacity = max(8192, got.bufferFrames, main.bufferFrames)
        mono = .allocate(capacity: capacity)
        mono.initialize(repeating: 0)
        frames = .allocate(capacity: Self.channelCount * capacity)
        frames.initialize(repeating: 0)
    }

    deinit {
        output.close()
        mono.deallocate()
        frames.deallocate()
    }

    /// Writes the haptics of a period of `frameCount` frames that began at session frame
    /// `from`, of which the first `advanced` were session (the rest silence: a pause, the
    /// end, a drain); `parameter(p)` is session parameter `p` where the mixer now is, `lead`
    /// frames ahead of the output (``SessionRunner/lookAheadFrames``).
    ///
    /// Render thread: no allocation or locks in steady state.
    func processPeriod(from: FrameTime, frameCount: Int, advanced: Int, lead: Int, parameter: (Int) -> Double) {
        guard !failed.load(ordering: .relaxed) else { return }
        let n = min(frameCount, mono.count)
        let played = max(0, min(advanced, n))
        if played > 0 { track.live?.processPeriod(from: from, advanced: played, lead: lead, parameter: parameter) }
        if played > 0 { track.render(into: UnsafeMutableBufferPointer(rebasing: mono[0..<played]), from: from, frameCount: played) }
        for i in played..<n { mono[i] = 0 }
        for i in 0..<n {
            let base = Self.channelCount * i
            frames[base] = 0
            frames[base + 1] = 0
            frames[base + 2] = mono[i]
            frames[base + 3] = mono[i]
        }
        do {
            _ = try output.availableFrames()
            let taken = try output.writeAvailable(UnsafeBufferPointer(rebasing: frames[0..<(Self.channelCount * n)]), frameCount: n)
            if taken < n { dropped.add(Int64(n - taken), ordering: .relaxed) }
        } catch {
            failed.store(true, ordering: .releasing)
        }
    }

    /// A live event started `pattern` at session frame `frame`. Control thread.
    func trigger(pattern: String, frame: FrameTime) { track.live?.trigger(pattern: pattern, frame: frame) }

    /// Starts the device (after the prefill, with the session's device).
    func start() {
        do { try output.start() } catch { failed.store(true, ordering: .releasing) }
    }
}

/// The render loop's output when the session has no sound device (`-D none`) but a haptics
/// device plays (`--haptics-device`): the loop paces itself on the haptics device's clock —
/// it waits for that device's room, and the position is what that device has played — so
/// the haptics keep playing, frame for frame, with nothing heard. The session's stereo
/// frames are dropped (the haptics device's own writes, `HapticsDeviceOutput`, carry the
/// period); the silent output is kept only to be closed.
///
/// Thread: the render thread once playback starts (see `AudioOutput`).
final class HapticsPacedOutput: AudioOutput {
    let silent: any AudioOutput
    let haptics: any AudioOutput
    let negotiated: OutputFormat

    init(silent: any AudioOutput, haptics: any AudioOutput) {
        self.silent = silent
        self.haptics = haptics
        let h = haptics.negotiated
        negotiated = OutputFormat(sampleRate: h.sampleRate, channelCount: silent.negotiated.channelCount,
                                   periodFrames: h.periodFrames, bufferFrames: h.bufferFrames, format: silent.negotiated.format)
    }

    var device: String { silent.device }
    var xrunCount: Int { haptics.xrunCount }
    func availableFrames() throws(AudioDeviceError) -> Int { try haptics.availableFrames() }
    /// The haptics device took the period already (before this write): all is taken.
    func writeAvailable(_ samples: UnsafeBufferPointer<Float>, frameCount: Int) throws(AudioDeviceError) -> Int { frameCount }
    /// The haptics device is started by its own output, right after.
    func start() throws(AudioDeviceError) {}
    func wait(extraDescriptor: Int32, timeoutMilliseconds: Int32) throws(AudioDeviceError) -> OutputWaitResult {
        try haptics.wait(extraDescriptor: extraDescriptor, timeoutMilliseconds: timeoutMilliseconds)
    }
    func delayFrames() -> Int? { haptics.delayFrames() }
    func close() { silent.close() }
}
