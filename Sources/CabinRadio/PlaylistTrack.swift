import CabinIO
import Glibc

/// One track of a playlist, decoded from disk as it plays: libsndfile reads it in chunks,
/// soxr brings it to the session's rate, mono becomes both channels (more than two
/// channels: the first two), and its gain brings it to the reference loudness — a gain
/// known before it plays (tags, or measured ahead of need), or measured while it decodes
/// ahead (`ProgressiveGain`: no separate pass, so it starts at once).
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
    /// The track's title from its tags, `ARTIST - TITLE` (as stations name theirs) or the
    /// title alone; nil without a title tag.
    let taggedTitle: String?

    /// The gain it was opened with (nil: measured while decoding).
    let gainDecibels: Double?
    /// The gain measured while decoding (`gainDecibels` nil), else nil.
    private let progressive: ProgressiveGain?
    /// The absolute frame (at the session's rate) of `decoded[0]`.
    private var dropped = 0

    /// `gainDecibels` nil: the gain is measured while the track decodes ahead
    /// (`ProgressiveGain`, to `referenceLoudness`).
    init(path: String, sampleRate: Double, gainDecibels: Double?, referenceLoudness: Double = -23) throws(SoundFileError) {
        self.path = path
        let file = try OpenSoundFile(path)
        self.file = file
        channels = file.channelCount
        taggedTitle = file.tag(.title).map { title in file.tag(.artist).map { "\($0) - \(title)" } ?? title }
        self.gainDecibels = gainDecibels
        gain = gainDecibels.map { Float(pow(10, $0 / 20)) } ?? 1
        progressive = gainDecibels == nil ? ProgressiveGain(sampleRate: sampleRate, referenceLoudness: referenceLoudness) : nil
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

    /// Frames read so far (at the session's rate): where in the track the next read starts.
    var position: Int { dropped + decodedStart / 2 }

    /// Decoded frames waiting to be read.
    var bufferedFrames: Int { (decoded.count - decodedStart) / 2 }

    /// Decodes one more chunk into the buffer; false at the end.
    @discardableResult
    func decodeMore() -> Bool {
        guard !isAtEnd else { return false }
        let got = chunk.withUnsafeMutableBufferPointer { file.read(into: $0.baseAddress!, frames: Self.chunkFrames) }
        framesDecoded += Int64(got)
        if decodedStart > 0 && decodedStart * 2 >= decoded.count {
            dropped += decodedStart / 2
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
        applyProgressiveGain(frames: n)
        defer { decodedStart += 2 * n }
        return decoded[decodedStart..<(decodedStart + 2 * n)]
    }

    /// Everything left (the end of the track, once it is decoded to the end).
    func readRest() -> [Float] {
        while decodeMore() {}
        applyProgressiveGain(frames: bufferedFrames)
        defer { decodedStart = decoded.count }
        return Array(decoded[decodedStart...])
    }

    /// The track's integrated loudness, once a progressive gain has measured all of it.
    var measuredLoudness: Double? { progressive?.finalLoudness }

    /// Applies the progressive gain to the next `frames` frames to be read (decoding further
    /// ahead as its measurement needs).
    private func applyProgressiveGain(frames n: Int) {
        guard let progressive, n > 0 else { return }
        let first = dropped + decodedStart / 2
        progressive.prepare(through: first + n - 1) { target in
            while dropped + decoded.count / 2 < target && decodeMore() {}
            let start = progressive.meteredFrames - dropped
            let end = min(target, dropped + decoded.count / 2) - dropped
            return (isAtEnd, start < end ? Array(decoded[(2 * start)..<(2 * end)]) : [])
        }
        // Decoding may have dropped frames before the read position: offsets from here.
        let base = decodedStart
        for i in 0..<n {
            let g = progressive.gain(at: first + i)
            decoded[base + 2 * i] *= g
            decoded[base + 2 * i + 1] *= g
        }
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
