import CabinAudio
import CabinIO
import CabinSession
import Glibc

extension RenderLoop {
    /// The device failed: report it, then retry opening it with backoff (0.25 s doubling to
    /// 2 s) until `reconnectTimeout`. On success the session skips the outage (it kept time
    /// while the device was away) and playback resumes. False: give up.
    ///
    /// This path allocates (error text, a new PCM): no audio flows while it runs.
    mutating func reconnect(after error: AudioDeviceError) -> Bool {
        shared.lastDeviceError.withLock { $0 = error.happened }
        shared.deviceErrors.add(1, ordering: .releasing)
        shared.state.store(PlayerShared.State.reconnecting.rawValue, ordering: .releasing)
        output.close()
        let outageStart = backend.now()
        var delay = 0.25
        let negotiated = output.negotiated
        while backend.now() - outageStart < player.options.reconnectTimeout {
            if backend.sleep(seconds: delay, wakeup: wakeup) {
                if shared.stopRequested.load(ordering: .acquiring) { return false }
                if PlayerShared.Transport(rawValue: shared.transport.load(ordering: .acquiring)) == .quit { return false }
            }
            delay = min(2, delay * 2)
            var configuration = PCMConfiguration(sampleRate: negotiated.sampleRate, channelCount: negotiated.channelCount,
                                                 periodFrames: negotiated.periodFrames,
                                                 periodCount: max(2, negotiated.bufferFrames / max(1, negotiated.periodFrames)))
            configuration.formats = [negotiated.format] + PCMSampleFormat.allCases.filter { $0 != negotiated.format }
            guard let fresh = try? backend.open(device: player.options.device, configuration: configuration),
                  fresh.negotiated.sampleRate == negotiated.sampleRate else { continue }
            output = fresh
            let outage = Int(((backend.now() - outageStart) * rate).rounded())
            transport.skip(outage)
            shared.restores.add(1, ordering: .releasing)
            shared.state.store((transport.isPaused ? PlayerShared.State.paused : .playing).rawValue, ordering: .releasing)
            return true
        }
        return false
    }
}
