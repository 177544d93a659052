import CabinAudio
import CabinHaptics
import CabinIO
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
/// timeline (its cues, its layers at the timeline's parameter values), as the offline track
/// does.
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
    init(device: String, session: CompiledSession, options: HapticAudioOptions, like main: PCMNegotiated,
         backend: any AudioOutputBackend) throws(AudioDeviceError) {
        let configuration = PCMConfiguration(sampleRate: Int(session.sampleRate), channelCount: Self.channelCount,
                                             periodFrames: main.periodFrames,
                                             periodCount: max(2, main.bufferFrames / max(1, main.periodFrames)))
        let output = try backend.open(device: device, configuration: configuration)
        let got = output.negotiated
        guard got.channelCount == Self.channelCount, got.sampleRate == Int(session.sampleRate) else {
            output.close()
            throw AudioDeviceError(.unsupportedConfiguration, device: device, operation: "snd_pcm_hw_params", code: EINVAL,
                                   detail: "a haptics device plays 4 channels (haptics on 3–4) at the session's \(Int(session.sampleRate)) Hz; it took \(got.channelCount) at \(got.sampleRate) Hz")
        }
        self.output = output
        track = SessionHapticTrack(session, options: options)
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
    /// end, a drain).
    ///
    /// Render thread: no allocation or locks in steady state.
    func processPeriod(from: FrameTime, frameCount: Int, advanced: Int) {
        guard !failed.load(ordering: .relaxed) else { return }
        let n = min(frameCount, mono.count)
        let played = max(0, min(advanced, n))
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

    /// Starts the device (after the prefill, with the session's device).
    func start() {
        do { try output.start() } catch { failed.store(true, ordering: .releasing) }
    }
}
