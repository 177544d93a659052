import CabinAudio
import CabinIO
import CabinPlayback
import CabinRadio
import CabinSession
import CabinTestSupport
import Foundation
import Testing

/// What a playlist reads from its files besides the audio: gains from APEv2 tags and from
/// an MP3's LAME/Info header, titles from the tags; and, live, untagged tracks measured
/// while they decode ahead rather than in a pass before they play.
struct PlaylistTagTests {
    /// The radio plays the sessions these tests load, as in `cabin`.
    init() { RadioStations.register() }

    static let rate = 48000.0

    static func ffmpeg(_ args: [String]) throws { _ = try ExternalTool.check("ffmpeg", ["-v", "error", "-y"] + args) }

    /// APEv2 at the end of an MP3 (as mp3gain and foobar2000 write it; here ffmpeg's
    /// `-write_apetag`), read as gains to −23 LUFS.
    @Test(.enabled(if: ExternalTool.which("ffmpeg") != nil && ExternalTool.which("sox") != nil))
    func apeGainsAreRead() throws {
        let dir = try TestEnvironment.temporaryDirectory("cabin-playlist-tags")
        defer { try? FileManager.default.removeItem(at: dir) }
        let wav = dir.appendingPathComponent("t.wav").path
        _ = try ExternalTool.check("sox", ["-n", "-r", "44100", "-c", "2", "-b", "16", wav, "synth", "1", "sine", "440", "vol", "0.3"])
        let ape = dir.appendingPathComponent("ape.mp3").path
        try Self.ffmpeg(["-i", wav, "-c:a", "libmp3lame", "-write_id3v2", "0", "-write_apetag", "1",
                         "-metadata", "REPLAYGAIN_TRACK_GAIN=-6.00 dB", "-metadata", "REPLAYGAIN_ALBUM_GAIN=-4.50 dB", ape])
        #expect(TrackGainTags.read(ape) == TrackGainTags(track: -11, album: -9.5))
        // A plain MP3 has none.
        let plain = dir.appendingPathComponent("plain.mp3").path
        try Self.ffmpeg(["-i", wav, "-c:a", "libmp3lame", plain])
        #expect(TrackGainTags.read(plain) == TrackGainTags())
    }

    /// The LAME header's radio gain, which the `lame` encoder computes and writes into every
    /// MP3 it makes (libmpg123 reads it only from LAME's own header: ffmpeg's, which names
    /// its encoder `Lavc`, is not read). The oracle is the header's own bytes: the
    /// "Radio Replay Gain" field 15 bytes after the `LAME` version string.
    @Test(.enabled(if: ExternalTool.which("lame") != nil && ExternalTool.which("sox") != nil, "needs Debian's lame"))
    func lameHeaderGainIsRead() throws {
        let dir = try TestEnvironment.temporaryDirectory("cabin-playlist-tags")
        defer { try? FileManager.default.removeItem(at: dir) }
        let wav = dir.appendingPathComponent("t.wav").path, mp3 = dir.appendingPathComponent("t.mp3").path
        _ = try ExternalTool.check("sox", ["-n", "-r", "44100", "-c", "2", "-b", "16", wav, "synth", "2", "sine", "440", "vol", "0.3"])
        _ = try ExternalTool.check("lame", ["--quiet", wav, mp3])
        let bytes = try Array(Data(contentsOf: URL(fileURLWithPath: mp3)))
        let at = try #require((0..<(bytes.count - 20)).first { bytes[$0..<($0 + 4)].elementsEqual("LAME".utf8) })
        let field = Int(bytes[at + 15]) << 8 | Int(bytes[at + 16])
        #expect(field >> 13 == 1, "a radio gain")
        let decibels = Double(field & 0x1FF) / 10 * (field & 0x200 != 0 ? -1 : 1)
        let tags = TrackGainTags.read(mp3)
        #expect(abs((tags.track ?? 99) - (decibels - 5)) < 0.001 && tags.album == nil, "\(tags), the header says \(decibels) dB")
    }

    /// A track's title is `ARTIST - TITLE` from its tags (FLAC's comments, MP3's ID3v2), or
    /// `TITLE` alone; a file without tags is named by its file name.
    @Test(.enabled(if: ExternalTool.which("ffmpeg") != nil && ExternalTool.which("sox") != nil))
    func titlesComeFromTags() throws {
        let dir = try TestEnvironment.temporaryDirectory("cabin-playlist-tags")
        defer { try? FileManager.default.removeItem(at: dir) }
        let wav = dir.appendingPathComponent("src.wav").path
        _ = try ExternalTool.check("sox", ["-n", "-r", "48000", "-c", "2", "-b", "16", wav, "synth", "0.5", "sine", "440", "vol", "0.3"])
        try Self.ffmpeg(["-i", wav, "-metadata", "TITLE=First Song", "-metadata", "ARTIST=Cabin Band",
                         dir.appendingPathComponent("1.flac").path])
        try Self.ffmpeg(["-i", wav, "-c:a", "libmp3lame", "-id3v2_version", "3", "-metadata", "title=Second Song",
                         dir.appendingPathComponent("2.mp3").path])
        _ = try ExternalTool.check("sox", ["-n", "-r", "48000", "-c", "2", "-b", "16",
                                           dir.appendingPathComponent("3 untitled.wav").path, "synth", "0.5", "sine", "660"])
        try Data("1.flac\n2.mp3\n3 untitled.wav\n".utf8).write(to: dir.appendingPathComponent("list.m3u"))
        let path = try PlaylistTests.session(dir, sound: "list.m3u", seconds: 1.6)
        let (_, events) = try PlaylistTests.render(path)
        let titles = events.compactMap { if case .title(_, let t) = $0 { t } else { nil } }
        #expect(titles == ["Cabin Band - First Song", "Second Song", "3 untitled"])
    }

    /// Renders a playlist as live playback feeds it (`live: true`: untagged tracks measured
    /// while they decode ahead), driven block by block as the offline renderer does.
    static func renderLive(_ dir: URL, sound: String, seconds: Double, block: Int) throws -> [Float] {
        let path = try PlaylistTests.session(dir, sound: sound, seconds: seconds)
        let document = try #require(SessionReader.read(String(contentsOfFile: path, encoding: .utf8), file: "s.json").document)
        let compiled = SessionCompiler.compile(document, sounds: ResolvedSounds(), sampleRate: rate, maxBlockFrames: block)
        let radio = RadioStations(compiled, documentFolder: dir.path, live: true)
        let runner = SessionRunner(compiled)
        var out: [Float] = []
        var buffer = [Float](repeating: 0, count: 2 * block)
        while !runner.isFinished {
            radio.fill(frames: block)
            let n = buffer.withUnsafeMutableBufferPointer { runner.render(into: $0, frameCount: block) }
            out += buffer[0..<(2 * n)]
        }
        return out
    }

    static func loudness(_ s: [Float], from: Double, to: Double) throws -> Double {
        let part = Array(s[(2 * Int(from * rate))..<(2 * Int(to * rate))])
        return try LoudnessMeter.measure(AudioBuffer(samples: part, channelCount: 2, sampleRate: rate)).integrated ?? -200
    }

    /// Live, an untagged 30 s track is not measured before it plays: its gain comes from the
    /// loudness of what is decoded ahead (10 s beyond each second). A steady tone is at the
    /// reference from its first second, the same as offline's whole-file measurement; a
    /// track that gets louder after 15 s is turned down before the loud part arrives and
    /// ends at the whole track's gain; and the frames are the same at every block size.
    @Test(.enabled(if: ExternalTool.which("sox") != nil))
    func untaggedTracksAreMeasuredWhileDecodingAhead() throws {
        let dir = try TestEnvironment.temporaryDirectory("cabin-playlist-ahead")
        defer { try? FileManager.default.removeItem(at: dir) }
        _ = try ExternalTool.check("sox", ["-n", "-r", "44100", "-c", "2", "-b", "16", dir.appendingPathComponent("steady.flac").path,
                                           "synth", "30", "sine", "500", "vol", "0.1"])
        try Data("steady.flac\n".utf8).write(to: dir.appendingPathComponent("steady.m3u"))
        try Data("rising.flac\n".utf8).write(to: dir.appendingPathComponent("rising.m3u"))
        let steady = try Self.renderLive(dir, sound: "steady.m3u", seconds: 30, block: 512)
        let perSecond = try (0..<29).map { try Self.loudness(steady, from: Double($0), to: Double($0) + 1) }
        for second in [0.0, 5, 20, 28] {
            let l = try Self.loudness(steady, from: second + 0.2, to: second + 1)
            #expect(abs(l + 23) < 0.3, "at \(second) s: \(l) LUFS; per second: \(perSecond)")
        }
        let offline = try PlaylistTests.render(try PlaylistTests.session(dir, sound: "steady.m3u", seconds: 30)).samples
        #expect(abs(try Self.loudness(steady, from: 1, to: 29) - Self.loudness(offline, from: 1, to: 29)) < 0.1)

        // Quiet for 15 s, then 20 dB louder for 15 s.
        let quiet = dir.appendingPathComponent("q.wav").path, loud = dir.appendingPathComponent("l.wav").path
        _ = try ExternalTool.check("sox", ["-n", "-r", "48000", "-c", "2", "-b", "16", quiet, "synth", "15", "sine", "500", "vol", "0.02"])
        _ = try ExternalTool.check("sox", ["-n", "-r", "48000", "-c", "2", "-b", "16", loud, "synth", "15", "sine", "500", "vol", "0.2"])
        _ = try ExternalTool.check("sox", [quiet, loud, dir.appendingPathComponent("rising.flac").path])
        let rising = try Self.renderLive(dir, sound: "rising.m3u", seconds: 30, block: 512)
        // The loud part, once the whole track is decoded (from 20 s on: 10 s ahead), plays
        // where the whole-file measurement puts it.
        let offlineRising = try PlaylistTests.render(try PlaylistTests.session(dir, sound: "rising.m3u", seconds: 30)).samples
        #expect(abs(try Self.loudness(rising, from: 21, to: 29) - Self.loudness(offlineRising, from: 21, to: 29)) < 0.1)
        // Nothing is louder than the reference by more than 1 dB in any second (the gain comes
        // down before the loud part arrives, not after).
        for second in stride(from: 0.0, to: 29, by: 1) {
            let l = try Self.loudness(rising, from: second, to: second + 1)
            #expect(l < -22, "at \(second) s: \(l) LUFS")
        }
        #expect(try Self.renderLive(dir, sound: "rising.m3u", seconds: 30, block: 7) == rising)
    }
}
