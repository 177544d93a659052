import CabinIO
import Glibc

/// One track of a playlist, decoded from disk as it plays: libsndfile reads it in chunks,
/// soxr brings it to the session's rate, mono becomes both channels (more than two
/// channels: the first two), and its gain brings it to the reference loudness.
///
/// Thread: the playlist's thread (or the offline renderer's); never the render thread.
final class PlaylistTrack {
    let path: String
    /// Linear gain applied to every sample.
    let gain: Float
    private let file: OpenSoundFile
    private let resampler: StreamingResampler?
    private let channels: Int
    private var chunk: [Float]
    private var decoded: [Float] = []
    private var decodedStart = 0
    private(set) var isAtEnd = false
    private var framesDecoded: Int64 = 0
    /// Why the track stopped before its end (truncated or damaged), once it has.
    private(set) var problem: String?
    static let chunkFrames = 4096

    init(path: String, sampleRate: Double, gainDecibels: Double) throws(SoundFileError) {
        self.path = path
        file = try OpenSoundFile(path)
        channels = file.channelCount
        gain = Float(pow(10, gainDecibels / 20))
        chunk = [Float](repeating: 0, count: Self.chunkFrames * channels)
        if file.sampleRate != sampleRate {
            do { resampler = try StreamingResampler(from: file.sampleRate, to: sampleRate, channels: 2) } catch {
                file.close()
                throw SoundFileError(.notAudio, path: path, reason: "cannot resample from \(Int(file.sampleRate)) Hz: \(error)")
            }
        } else {
            resampler = nil
        }
    }

    deinit { file.close() }

    /// Decoded frames waiting to be read.
    var bufferedFrames: Int { (decoded.count - decodedStart) / 2 }

    /// Decodes one more chunk into the buffer; false at the end.
    @discardableResult
    func decodeMore() -> Bool {
        guard !isAtEnd else { return false }
        let got = chunk.withUnsafeMutableBufferPointer { file.read(into: $0.baseAddress!, frames: Self.chunkFrames) }
        framesDecoded += Int64(got)
        if decodedStart > 0 && decodedStart * 2 >= decoded.count {
            decoded.removeSubrange(0..<decodedStart)
            decodedStart = 0
        }
        var stereo = [Float](repeating: 0, count: 2 * got)
        for i in 0..<got {
            let l = chunk[i * channels] * gain
            stereo[2 * i] = l
            stereo[2 * i + 1] = channels > 1 ? chunk[i * channels + 1] * gain : l
        }
        do {
            if let resampler {
                try stereo.withUnsafeBufferPointer { (p) throws(SystemError) in
                    try resampler.process(got > 0 ? p.baseAddress! : nil, frames: got) { decoded.append(contentsOf: $0) }
                }
            } else {
                decoded.append(contentsOf: stereo)
            }
        } catch {
            problem = "\(path): \(error)"
            isAtEnd = true
            return false
        }
        if got == 0 {
            isAtEnd = true
            do { try file.checkEnd(framesDecoded: framesDecoded) } catch { problem = error.description }
        }
        return got > 0
    }

    /// Up to `frames` frames, decoding as needed, always leaving the last `holdback` frames
    /// of the track unread (the end a crossfade overlaps: `readRest`); fewer only at the end.
    func read(_ frames: Int, keepingBack holdback: Int = 0) -> ArraySlice<Float> {
        while bufferedFrames < frames + holdback && decodeMore() {}
        let n = max(0, min(frames, bufferedFrames - holdback))
        defer { decodedStart += 2 * n }
        return decoded[decodedStart..<(decodedStart + 2 * n)]
    }

    /// Everything left (the end of the track, once it is decoded to the end).
    func readRest() -> [Float] {
        while decodeMore() {}
        defer { decodedStart = decoded.count }
        return Array(decoded[decodedStart...])
    }
}

/// Measures a file's integrated loudness (EBU R128, libebur128) by decoding it in chunks —
/// a step at a time, so a playlist's thread can measure the next track while it plays this one.
///
/// Thread: one thread at a time, not the render thread.
final class LoudnessProbe {
    let path: String
    private var file: OpenSoundFile?
    private var meter: LoudnessMeter.Running?
    private var chunk: [Float] = []
    private var stereo: [Float] = []
    /// The result once done: the loudness in LUFS (nil for silence or an unreadable file).
    private(set) var loudness: Double?
    private(set) var isDone = false

    init(path: String) {
        self.path = path
        do {
            let f = try OpenSoundFile(path)
            file = f
            // Measured as it plays: two channels (mono in both, more than two: the first two).
            meter = try LoudnessMeter.Running(channelCount: 2, sampleRate: f.sampleRate)
            chunk = [Float](repeating: 0, count: 16384 * f.channelCount)
            stereo = [Float](repeating: 0, count: 2 * 16384)
        } catch {
            file?.close()
            file = nil
            isDone = true
        }
    }

    deinit { file?.close() }

    /// Decodes and measures one chunk (about a third of a second at 48 kHz); true when done.
    @discardableResult
    func step() -> Bool {
        guard !isDone, let file, let meter else { return true }
        let got = chunk.withUnsafeMutableBufferPointer { file.read(into: $0.baseAddress!, frames: 16384) }
        if got > 0 {
            let channels = file.channelCount
            for i in 0..<got {
                stereo[2 * i] = chunk[i * channels]
                stereo[2 * i + 1] = channels > 1 ? chunk[i * channels + 1] : chunk[i * channels]
            }
            do {
                try stereo.withUnsafeBufferPointer { (p) throws(SystemError) in
                    try meter.add(UnsafeBufferPointer(rebasing: p[0..<(2 * got)]))
                }
                return false
            } catch {}
        }
        loudness = meter.loudness.integrated.flatMap { $0.isFinite ? $0 : nil }
        file.close()
        self.file = nil
        isDone = true
        return true
    }

    /// Measures to the end.
    func finish() -> Double? {
        while !step() {}
        return loudness
    }
}
