import CALSA
import CabinOutput
import Glibc

extension SampleFormat {
    var alsa: snd_pcm_format_t {
        switch self {
        case .float32: SND_PCM_FORMAT_FLOAT_LE
        case .s32: SND_PCM_FORMAT_S32_LE
        case .s16: SND_PCM_FORMAT_S16_LE
        }
    }
}

/// A blocking ALSA playback stream: open by name, negotiate, write float frames (converted
/// to the device's format), recover from underruns, drain, close.
///
/// Underruns (`-EPIPE`) and suspends (`-ESTRPIPE`) are recovered inside `write` and
/// counted in `xrunCount`; they never reach the caller as errors.
///
/// Thread: one thread at a time (the playback thread). Not `Sendable`: it owns a
/// `snd_pcm_t *`.
///
/// ```swift
/// let out = try PCMOutput(device: "default")
/// try out.write(samples)   // interleaved Float, negotiated.channelCount per frame
/// try out.drain()
/// ```
public final class PCMOutput {
    // The stored state is private (or a `let`) so that the optimizer sees every access and
    // the render thread's calls pay no dynamic exclusivity checks.
    private var pcm: OpaquePointer?
    var handle: OpaquePointer? { pcm }
    /// poll descriptors: slot 0 for the caller's extra descriptor, then ALSA's.
    let pollDescriptors: UnsafeMutablePointer<pollfd>
    static let pollCapacity = 16
    /// How many of `pollDescriptors[1...]` are ALSA's (0 until the first wait).
    private var alsaPollCount = 0
    /// The ALSA device name as opened (`default`, `hw:1,0`), for messages.
    public let device: String
    /// What the device agreed to: rate, sample format, channels, period and buffer sizes
    /// (the rate may differ from the one asked for).
    public let negotiated: OutputFormat
    /// Underruns and suspends recovered so far.
    public var xrunCount: Int { xruns }
    private var xruns = 0
    private var scratch: UnsafeMutableRawBufferPointer

    /// Opens and configures `device` for playback. The corresponding C functions are
    /// `snd_pcm_open`, `snd_pcm_hw_params_*` and `snd_pcm_sw_params_*`.
    public init(device: String = "default", configuration: OutputConfiguration = OutputConfiguration(),
                nonBlocking: Bool = false) throws(AudioDeviceError) {
        _ = ALSA.captureErrors
        self.device = device
        var handle: OpaquePointer?
        let err = snd_pcm_open(&handle, device, SND_PCM_STREAM_PLAYBACK, nonBlocking ? SND_PCM_NONBLOCK : 0)
        guard err >= 0, let handle else { throw ALSA.error(err, device: device, operation: "snd_pcm_open") }
        do {
            negotiated = try PCMOutput.configure(handle, device: device, configuration)
        } catch {
            snd_pcm_close(handle)
            throw error
        }
        pcm = handle
        scratch = .allocate(byteCount: negotiated.bufferFrames * negotiated.channelCount * 4,
                            alignment: 16)
        pollDescriptors = .allocate(capacity: PCMOutput.pollCapacity)
        pollDescriptors.initialize(repeating: pollfd(), count: PCMOutput.pollCapacity)
    }

    deinit {
        close()
        scratch.deallocate()
        pollDescriptors.deallocate()
    }

    /// How many poll descriptors ALSA uses, stored after `pollDescriptors[0]`: asked once
    /// (they do not change while the PCM is open). The corresponding C functions are
    /// `snd_pcm_poll_descriptors_count` and `snd_pcm_poll_descriptors`.
    func alsaPollDescriptorCount(_ pcm: OpaquePointer) throws(AudioDeviceError) -> Int {
        if alsaPollCount > 0 { return alsaPollCount }
        let count = Int(snd_pcm_poll_descriptors_count(pcm))
        guard count > 0, count <= PCMOutput.pollCapacity - 1 else {
            throw AudioDeviceError(.failed, device: device, operation: "snd_pcm_poll_descriptors_count", code: EBADF,
                                   detail: "the device is closed")
        }
        let filled = snd_pcm_poll_descriptors(pcm, pollDescriptors + 1, UInt32(count))
        guard filled > 0 else { throw ALSA.error(filled < 0 ? filled : -EINVAL, device: device, operation: "snd_pcm_poll_descriptors") }
        alsaPollCount = Int(filled)
        return alsaPollCount
    }

    /// Writes interleaved float frames, blocking until the device took them all.
    /// The corresponding C function is `snd_pcm_writei` (recovery: `snd_pcm_recover`).
    public func write(_ samples: UnsafeBufferPointer<Float>) throws(AudioDeviceError) {
        guard let pcm else { throw AudioDeviceError(.failed, device: device, operation: "snd_pcm_writei", code: EBADF, detail: "closed") }
        let channels = negotiated.channelCount
        precondition(samples.count % channels == 0, "write whole frames")
        var offset = 0
        let chunkFrames = negotiated.periodFrames
        while offset < samples.count {
            let frames = min(chunkFrames, (samples.count - offset) / channels)
            let source = UnsafeBufferPointer(rebasing: samples[offset..<(offset + frames * channels)])
            let data = convert(source)
            var done = 0
            while done < frames {
                let p = data.advanced(by: done * channels * negotiated.format.bytesPerSample)
                let n = snd_pcm_writei(pcm, p, snd_pcm_uframes_t(frames - done))
                if n >= 0 { done += n; continue }
                try recover(Int32(n), operation: "snd_pcm_writei")
            }
            offset += frames * channels
        }
    }

    /// Plays out what is buffered, then stops. The corresponding C function is `snd_pcm_drain`.
    public func drain() throws(AudioDeviceError) {
        guard let pcm else { return }
        let err = snd_pcm_drain(pcm)
        if err < 0 && err != -EPIPE { throw ALSA.error(err, device: device, operation: "snd_pcm_drain") }
    }

    /// Frames queued ahead of the speaker, or `nil` if the device cannot say.
    /// The corresponding C function is `snd_pcm_delay`.
    public func delayFrames() -> Int? {
        guard let pcm else { return nil }
        var delay: snd_pcm_sframes_t = 0
        return snd_pcm_delay(pcm, &delay) == 0 ? delay : nil
    }

    /// Closes at once, dropping what is buffered. Idempotent. The corresponding C function
    /// is `snd_pcm_close`.
    public func close() {
        if let pcm { snd_pcm_close(pcm) }
        pcm = nil
    }

    /// Handles a negative return from a write: xruns and suspends are recovered and counted,
    /// `-EAGAIN`/`-EINTR` retried, anything else thrown.
    /// The corresponding C functions are `snd_pcm_recover` and `snd_pcm_wait`.
    func recoverFromUnderrun(_ err: Int32, operation: String) throws(AudioDeviceError) {
        try recover(err, operation: operation)
    }

    private func recover(_ err: Int32, operation: String) throws(AudioDeviceError) {
        guard let pcm else { return }
        switch -err {
        case EINTR: return
        case EAGAIN: snd_pcm_wait(pcm, 100); return
        case EPIPE, ESTRPIPE:
            xruns += 1
            let r = snd_pcm_recover(pcm, err, 1)
            if r < 0 { throw ALSA.error(r, device: device, operation: "snd_pcm_recover") }
        default:
            throw ALSA.error(err, device: device, operation: operation)
        }
    }

    /// Converts float frames to the negotiated format in the preallocated scratch buffer.
    func convert(_ source: UnsafeBufferPointer<Float>) -> UnsafeRawPointer {
        switch negotiated.format {
        case .float32:
            return UnsafeRawPointer(source.baseAddress!)
        case .s32:
            let out = scratch.bindMemory(to: Int32.self)
            for i in 0..<source.count {
                let v = max(-1, min(1, Double(source[i]))) * 2147483647.0
                out[i] = Int32(v.rounded())
            }
        case .s16:
            let out = scratch.bindMemory(to: Int16.self)
            for i in 0..<source.count {
                let v = max(-1, min(1, source[i])) * 32767
                out[i] = Int16(v.rounded())
            }
        }
        return UnsafeRawPointer(scratch.baseAddress!)
    }
}
