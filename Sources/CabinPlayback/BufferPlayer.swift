import CabinAudio
import CabinIO
import CabinOutput
import Glibc
import Synchronization

/// Plays a finished buffer on a device from start to end, blocking: for previews (`cabin
/// haptics play --audio`, `cabin sounds play`), not for sessions (those go through the
/// mixer). The device is any the registry opens (`-D` names: ALSA, `none`, …), pushed into
/// or pulling, through the same seam as sessions.
///
/// Mono buffers are sent as stereo (the same samples on both channels), because many
/// hardware devices refuse one channel; other channel counts go as they are (a 4-channel
/// DualSense render goes to a 4-channel device).
///
/// Thread: control thread only (blocks for the length of the buffer).
public enum BufferPlayer {
    /// How a preview ended.
    public enum Outcome: Sendable, Equatable {
        /// Every frame was played and heard.
        case finished
        /// `isCancelled` returned true; playback stopped at once.
        case cancelled
    }

    /// Plays `buffer` on `device` (a `-D` name; `backend` overrides the registry's), in
    /// periods, polling `isCancelled` about every period; `started` is called once the first
    /// period is on its way (the sound has begun). Returns once the last frame has been heard.
    public static func play(_ buffer: AudioBuffer, device: String = "default", periodFrames: Int = 1024,
                            backend: (any AudioOutputBackend)? = nil,
                            isCancelled: () -> Bool = { false }, started: () -> Void = {}) throws(AudioDeviceError) -> Outcome {
        let channels = buffer.channelCount == 1 ? 2 : buffer.channelCount
        var samples = buffer.samples
        if buffer.channelCount == 1 {
            samples = [Float](repeating: 0, count: 2 * buffer.samples.count)
            for (i, v) in buffer.samples.enumerated() {
                samples[2 * i] = v
                samples[2 * i + 1] = v
            }
        }
        let resolved = backend.map { ($0, device) } ?? {
            let r = OutputRegistry.standard.resolveChoosingDefault(device)
            return (r.entry.make(), r.device)
        }()
        var configuration = OutputConfiguration(sampleRate: Int(buffer.sampleRate.rounded()), channelCount: channels,
                                                periodFrames: periodFrames, periodCount: 4)
        configuration.mediaRole = .notification
        let opened = try resolved.0.open(device: resolved.1, configuration: configuration)
        defer { opened.close() }
        guard opened.negotiated.channelCount == channels else {
            throw AudioDeviceError(.unsupportedConfiguration, device: device, operation: "channels", code: EINVAL,
                                   detail: "the buffer has \(channels) channels, the device took \(opened.negotiated.channelCount)")
        }
        switch opened {
        case .push(let output):
            return try samples.withUnsafeBufferPointer { (p) throws(AudioDeviceError) in
                try push(p, channels: channels, to: output, clock: resolved.0, isCancelled: isCancelled, started: started)
            }
        case .pull(let output):
            return try pull(samples, channels: channels, from: output, clock: resolved.0, isCancelled: isCancelled, started: started)
        }
    }

    /// Streams a sound made as it plays: `render` writes the next frames (interleaved,
    /// `channelCount` channels, at most the buffer's length over `channelCount`) and returns
    /// how many, 0 at its end; `frameCount` frames are expected in all. On a push device
    /// (ALSA) each block is made just before it is written, so the sound begins once its
    /// first device buffer is made, whatever its length (`haptics watch`: from a save to the
    /// first sound); a pull device gets it made whole first. `opened` is called once the
    /// device is open. Otherwise as `play(_:device:…)`.
    public static func play(frameCount total: Int, channelCount: Int, sampleRate: Double, device: String = "default",
                            periodFrames: Int = 1024, backend: (any AudioOutputBackend)? = nil,
                            isCancelled: () -> Bool = { false }, opened: () -> Void = {}, started: () -> Void = {},
                            render: (UnsafeMutableBufferPointer<Float>) -> Int) throws(AudioDeviceError) -> Outcome {
        let channels = channelCount == 1 ? 2 : channelCount
        let samples = UnsafeMutableBufferPointer<Float>.allocate(capacity: max(1, total * channels))
        samples.initialize(repeating: 0)
        defer { samples.deallocate() }
        var made = 0
        var block = [Float](repeating: 0, count: 4096 * channelCount)
        /// Makes the frames up to `end` (the rest stay silent if the sound ends early).
        func make(upTo end: Int) {
            let end = min(end, total)
            while made < end {
                let want = min(4096, end - made)
                let n = block.withUnsafeMutableBufferPointer { render(UnsafeMutableBufferPointer(rebasing: $0[0..<(want * channelCount)])) }
                guard n > 0 else { made = total; return }
                if channelCount == 1 {
                    for i in 0..<n { samples[2 * (made + i)] = block[i]; samples[2 * (made + i) + 1] = block[i] }
                } else {
                    for i in 0..<(n * channels) { samples[made * channels + i] = block[i] }
                }
                made += n
            }
        }
        let resolved = backend.map { ($0, device) } ?? {
            let r = OutputRegistry.standard.resolveChoosingDefault(device)
            return (r.entry.make(), r.device)
        }()
        var configuration = OutputConfiguration(sampleRate: Int(sampleRate.rounded()), channelCount: channels,
                                                periodFrames: periodFrames, periodCount: 4)
        configuration.mediaRole = .notification
        let output = try resolved.0.open(device: resolved.1, configuration: configuration)
        defer { output.close() }
        opened()
        guard output.negotiated.channelCount == channels else {
            throw AudioDeviceError(.unsupportedConfiguration, device: device, operation: "channels", code: EINVAL,
                                   detail: "the sound has \(channels) channels, the device took \(output.negotiated.channelCount)")
        }
        switch output {
        case .push(let output):
            return try push(UnsafeBufferPointer(rebasing: samples[0..<(total * channels)]), channels: channels, to: output,
                            clock: resolved.0, isCancelled: isCancelled, started: started, prepare: make(upTo:))
        case .pull(let output):
            make(upTo: total)
            return try pull(Array(samples[0..<(total * channels)]), channels: channels, from: output, clock: resolved.0,
                            isCancelled: isCancelled, started: started)
        }
    }

    /// Pushes `samples`; `prepare(end)` is called before frames up to `end` are written.
    private static func push(_ samples: UnsafeBufferPointer<Float>, channels: Int, to output: any AudioOutput, clock: any AudioOutputBackend,
                             isCancelled: () -> Bool, started: () -> Void,
                             prepare: (Int) -> Void = { _ in }) throws(AudioDeviceError) -> Outcome {
        let total = samples.count / channels
        var offset = 0
        var running = false
        while offset < total {
            if isCancelled() { return .cancelled }
            let room = try output.availableFrames()
            if room > 0 {
                let n = min(room, total - offset)
                prepare(offset + n)
                let taken = try output.writeAvailable(UnsafeBufferPointer(rebasing: samples[(offset * channels)..<((offset + n) * channels)]),
                                                      frameCount: n)
                if offset == 0 && taken > 0 { started() }
                offset += taken
                if taken < n || offset == total {
                    if !running { try output.start(); running = true }
                }
            }
            if offset < total { _ = try output.wait(extraDescriptor: -1, timeoutMilliseconds: 100) }
        }
        if !running { try output.start() }
        // Heard when the device's queue has played out.
        while let queued = output.delayFrames(), queued > 0 {
            if isCancelled() { return .cancelled }
            let seconds = min(0.02, Double(queued) / Double(output.negotiated.sampleRate))
            _ = clock.sleep(seconds: max(0.001, seconds), wakeupDescriptor: -1)
        }
        return .finished
    }

    private static func pull(_ samples: [Float], channels: Int, from output: any PullOutput, clock: any AudioOutputBackend,
                             isCancelled: () -> Bool, started: () -> Void) throws(AudioDeviceError) -> Outcome {
        let source = UnsafeMutableBufferPointer<Float>.allocate(capacity: samples.count)
        _ = source.initialize(from: samples)
        defer { source.deallocate() }
        let read = Atomic<Int>(0)  // samples handed to the device so far
        try output.start { out, frameCount in
            let at = read.load(ordering: .relaxed)
            let n = min(frameCount * channels, source.count - at, out.count)
            if n > 0 { out.baseAddress!.update(from: source.baseAddress! + at, count: n) }
            if out.count > n { out[n...].update(repeating: 0) }
            read.store(at + max(0, n), ordering: .releasing)
        }
        started()
        while read.load(ordering: .acquiring) < source.count {
            if isCancelled() { return .cancelled }
            _ = try output.wait(extraDescriptor: -1, timeoutMilliseconds: 50)
        }
        let tail = Double(output.delayFrames() ?? 0) / Double(output.negotiated.sampleRate)
        if tail > 0 { _ = clock.sleep(seconds: tail, wakeupDescriptor: -1) }
        return .finished
    }
}
