import CabinIO
import CabinPlayback
import CabinRadio

/// What a station's thread spends decoding: a stream file (Ogg Opus, Ogg Vorbis or MP3, as a
/// station would send it) through the same format detection, codec and soxr resampling to
/// 48 kHz, fed in 4 KB chunks; the CPU time against the audio's duration gives the share of
/// one core that playing the station live takes (`cabin bench --radio FILE`).
///
/// Thread: control thread (allocates; measures the calling thread's CPU time).
package enum RadioDecodeBenchmark {
    package struct Figures: Sendable {
        package var codec: String
        package var audioSeconds: Double
        package var cpuSeconds: Double
        /// Seconds of audio decoded per CPU second.
        package var speed: Double { audioSeconds / max(1e-9, cpuSeconds) }
        /// The share of one core decoding takes at real time.
        package var cpuPercentAtRealTime: Double { 100 / speed }
    }

    package struct Failure: Error, CustomStringConvertible { package var description: String }

    package static func measure(_ bytes: [UInt8], sampleRate: Double = 48_000) throws(Failure) -> Figures {
        let codec: RadioCodec
        switch RadioFormat.detect(contentType: nil, head: Array(bytes.prefix(64)), isComplete: true) {
        case .format(.ogg)?: codec = OggRadioCodec()
        case .format(.mp3)?:
            do { codec = try MP3RadioCodec() } catch { throw Failure(description: error.description) }
        case .notPlayable(let why)?: throw Failure(description: why)
        case nil: throw Failure(description: "too short to tell")
        }
        var frames = 0
        var resampler: StreamingResampler?
        let start = ThreadCPUClock.seconds()
        do {
            for offset in stride(from: 0, to: bytes.count, by: 4096) {
                var decoded: [Float] = []
                _ = try codec.decode(Array(bytes[offset..<min(bytes.count, offset + 4096)]), into: &decoded)
                guard !decoded.isEmpty else { continue }
                if codec.sampleRate == sampleRate {
                    frames += decoded.count / 2
                    continue
                }
                if resampler == nil { resampler = try StreamingResampler(from: codec.sampleRate, to: sampleRate, channels: 2) }
                try decoded.withUnsafeBufferPointer { input throws(SystemError) in
                    try resampler!.process(input.baseAddress!, frames: input.count / 2) { frames += $0.count / 2 }
                }
            }
        } catch let error as RadioFailure {
            throw Failure(description: error.description)
        } catch {
            throw Failure(description: "\(error)")
        }
        let cpu = ThreadCPUClock.seconds() - start
        return Figures(codec: codec.name, audioSeconds: Double(frames) / sampleRate, cpuSeconds: cpu)
    }
}
