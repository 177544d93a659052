import CALSA
import CabinOutput
import Glibc

/// Poll-based, non-blocking playback for a real-time render thread: wait until a period is
/// free (or another file descriptor, such as a shutdown eventfd, becomes readable), then
/// write exactly what is free. Underruns are recovered here and reported to the caller,
/// who decides what the lost time means (the session player skips ahead to stay on time).
extension PCMOutput {
    /// What a `wait` woke for: the device wants data, the extra descriptor is readable, or the
    /// timeout passed (CabinOutput's `OutputWaitResult`).
    public typealias WaitResult = OutputWaitResult

    /// Frames that can be written now. An underrun or suspend found here is recovered and
    /// counted; the return is then the whole (empty) buffer.
    /// The corresponding C functions are `snd_pcm_avail_update` and `snd_pcm_recover`.
    public func availableFrames() throws(AudioDeviceError) -> Int {
        guard let pcm = handle else { throw closedError("snd_pcm_avail_update") }
        let n = snd_pcm_avail_update(pcm)
        if n >= 0 { return n }
        try recoverFromUnderrun(Int32(n), operation: "snd_pcm_avail_update")
        return negotiated.bufferFrames
    }

    /// Waits until the device wants data, `extraDescriptor` is readable, or `timeoutMilliseconds`
    /// pass. The corresponding C functions are `snd_pcm_poll_descriptors`, `poll` and
    /// `snd_pcm_poll_descriptors_revents`.
    public func wait(extraDescriptor: Int32, timeoutMilliseconds: Int32) throws(AudioDeviceError) -> WaitResult {
        guard let pcm = handle else { throw closedError("poll") }
        let count = try alsaPollDescriptorCount(pcm)
        let fds = pollDescriptors
        fds[0] = pollfd(fd: extraDescriptor, events: Int16(POLLIN), revents: 0)
        for i in 1...count { fds[i].revents = 0 }
        let r = poll(fds, nfds_t(1 + count), timeoutMilliseconds)
        if r <= 0 { return .timeout }
        if fds[0].revents & Int16(POLLIN) != 0 { return .wakeup }
        var revents: UInt16 = 0
        let e = snd_pcm_poll_descriptors_revents(pcm, fds + 1, UInt32(count), &revents)
        if e < 0 { throw ALSA.error(e, device: device, operation: "snd_pcm_poll_descriptors_revents") }
        if revents & UInt16(POLLERR) != 0 {
            // An xrun or a lost device: let avail/write tell which.
            return .ready
        }
        return revents & UInt16(POLLOUT) != 0 ? .ready : .timeout
    }

    /// Writes up to `frameCount` frames without blocking; returns how many the device took
    /// (0 if it is full). An underrun is recovered, counted and reported as 0 frames taken.
    /// The corresponding C function is `snd_pcm_writei`.
    public func writeAvailable(_ samples: UnsafeBufferPointer<Float>, frameCount: Int) throws(AudioDeviceError) -> Int {
        guard let pcm = handle else { throw closedError("snd_pcm_writei") }
        let data = convert(UnsafeBufferPointer(rebasing: samples[0..<(frameCount * negotiated.channelCount)]))
        let n = snd_pcm_writei(pcm, data, snd_pcm_uframes_t(frameCount))
        if n >= 0 { return n }
        if n == -Int(EAGAIN) { return 0 }
        try recoverFromUnderrun(Int32(n), operation: "snd_pcm_writei")
        return 0
    }

    /// Starts playback now (after a prefill shorter than the start threshold).
    /// The corresponding C function is `snd_pcm_start`.
    public func start() throws(AudioDeviceError) {
        guard let pcm = handle else { throw closedError("snd_pcm_start") }
        let state = snd_pcm_state(pcm)
        guard state == SND_PCM_STATE_PREPARED else { return }
        let err = snd_pcm_start(pcm)
        if err < 0 { throw ALSA.error(err, device: device, operation: "snd_pcm_start") }
    }

    private func closedError(_ op: String) -> AudioDeviceError {
        AudioDeviceError(.failed, device: device, operation: op, code: EBADF, detail: "the device is closed")
    }
}
