import CabinAudio
import CabinIO
import CabinPlayback
import CabinRadio
import CabinSession
import CabinTestSupport
import Foundation
import Testing

/// The radio from the user's own music: playlists of files made by sox, ffmpeg and opusenc
/// (a tone of its own frequency per track, so the render tells which track played),
/// rendered offline and measured.
struct PlaylistTests {
    /// The radio plays the sessions these tests load, as in `cabin`.
    init() { RadioStations.register() }

    static let rate = 48000.0

    /// A folder with `s.json` playing `sound` on the radio bus (0 dB, no loudness target).
    static func session(_ dir: URL, sound: String, seconds: Double, options: String = "", loop: Bool = false,
                        seed: Int = 0) throws -> String {
        let path = dir.appendingPathComponent("s.json").path
        let playlist = options.isEmpty ? "" : ", \"playlist\": { \(options) }"
        try Data("""
            { "cabin": 1, "duration": \(seconds), "seed": \(seed), "buses": { "radio": 0 },
              "layers": { "radio": { "bus": "radio", "sound": "\(sound)", "loop": \(loop)\(playlist) } },
              "cues": [ { "at": 0, "start": "radio" } ] }
            """.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Renders the session offline as `cabin render` does (the playlist fed before every
    /// block); `skipAt` asks for the next track once that many frames are rendered.
    static func render(_ path: String, block: Int = 512, skipAt: Int? = nil) throws -> (samples: [Float], events: [RadioEvent]) {
        let loaded = try SessionLoader.load(path: path, sampleRate: rate, maxBlockFrames: 512)
        let runner = SessionRunner(loaded.compiled)
        var out: [Float] = []
        var buffer = [Float](repeating: 0, count: 2 * block)
        var done = 0
        while !runner.isFinished {
            if let skipAt, done <= skipAt, done + block > skipAt { try loaded.radio.nextStation() }
            loaded.radio.fill(frames: block)
            let n = buffer.withUnsafeMutableBufferPointer { runner.render(into: $0, frameCount: block) }
            out += buffer[0..<(2 * n)]
            done += n
        }
        return (out, loaded.radio.poll())
    }

    static func left(_ s: [Float], from: Double, to: Double) -> [Float] {
        let a = Int(from * rate), b = min(s.count / 2, Int(to * rate))
        return (a..<b).map { s[2 * $0] }
    }

    static func frequency(_ s: [Float], from: Double, to: Double) -> Double {
        SignalAnalysis.zeroCrossingFrequency(left(s, from: from, to: to), sampleRate: rate) ?? 0
    }

    static func db(_ x: Double) -> Double { 20 * log10(x) }

    /// Power of `frequency` in `x` (Goertzel), as the RMS of that component.
    static func component(_ x: [Float], _ frequency: Double) -> Double {
        let w = 2 * Double.pi * frequency / rate
        var re = 0.0, im = 0.0
        for (i, v) in x.enumerated() {
            re += Double(v) * cos(w * Double(i))
            im -= Double(v) * sin(w * Double(i))
        }
        return 2 * (re * re + im * im).squareRoot() / Double(x.count) / 2.0.squareRoot()
    }

    static func sox(_ args: [String]) throws { _ = try ExternalTool.check("sox", args) }
    static func ffmpeg(_ args: [String]) throws { _ = try ExternalTool.check("ffmpeg", ["-v", "error", "-y"] + args) }

    /// Tags written by the tools themselves (ffmpeg into FLAC's Vorbis comment, Ogg
    /// Vorbis's comment header and MP3's ID3v2 TXXX frames; opusenc into OpusTags) are
    /// read back as gains to −23 LUFS.
    @Test(.enabled(if: ExternalTool.which("ffmpeg") != nil && ExternalTool.which("opusenc") != nil))
    func gainTagsAreReadFromEveryFormat() throws {
        let dir = try TestEnvironment.temporaryDirectory("cabin-playlist")
        defer { try? FileManager.default.removeItem(at: dir) }
        let wav = dir.appendingPathComponent("t.wav").path
        try Self.sox(["-n", "-r", "48000", "-c", "2", "-b", "16", wav, "synth", "0.5", "sine", "440", "vol", "0.3"])
        for (ext, codec) in [("flac", "flac"), ("ogg", "libvorbis"), ("mp3", "libmp3lame")] {
            let out = dir.appendingPathComponent("t.\(ext)").path
            try Self.ffmpeg(["-i", wav, "-c:a", codec, "-metadata", "REPLAYGAIN_TRACK_GAIN=-7.25 dB",
                             "-metadata", "REPLAYGAIN_ALBUM_GAIN=+2.50 dB"] + (ext == "mp3" ? ["-id3v2_version", "3"] : []) + [out])
            let tags = TrackGainTags.read(out)
            #expect(tags == TrackGainTags(track: -12.25, album: -2.5), "\(ext): \(tags)")
        }
        let opus = dir.appendingPathComponent("t.opus").path
        _ = try ExternalTool.check("opusenc", ["--quiet", "--comment", "R128_TRACK_GAIN=-1024", wav, opus])
        #expect(TrackGainTags.read(opus) == TrackGainTags(track: -4, album: nil))
        #expect(TrackGainTags.read(wav) == TrackGainTags())
    }

    /// Tracks in several formats and rates play in the playlist's order, back to back, each
    /// at the reference loudness: by its ReplayGain or R128 tag where it has one (the tag
    /// wins over what a measurement would say), else measured with libebur128 (−23 LUFS).
    @Test(.enabled(if: ExternalTool.which("ffmpeg") != nil && ExternalTool.which("opusenc") != nil))
    func tracksPlayInOrderAtTheirTaggedOrMeasuredLevel() throws {
        let dir = try TestEnvironment.temporaryDirectory("cabin-playlist")
        defer { try? FileManager.default.removeItem(at: dir) }
        func tone(_ name: String, _ f: Int, amplitude: Double, rate: Int = 48000, channels: Int = 2) throws -> String {
            let path = dir.appendingPathComponent(name).path
            try Self.sox(["-n", "-r", "\(rate)", "-c", "\(channels)", "-b", "16", path, "synth", "1.5", "sine", "\(f)", "vol", "\(amplitude)"])
            return path
        }
        // (file, frequency, expected RMS of the tone in the render)
        var tracks: [(String, Double, Double)] = []
        let a = try tone("a.wav", 300, amplitude: 0.4, rate: 44100)
        try Self.ffmpeg(["-i", a, "-metadata", "REPLAYGAIN_TRACK_GAIN=-4.00 dB", dir.appendingPathComponent("a.flac").path])
        tracks.append(("a.flac", 300, 0.4 / 2.0.squareRoot() * pow(10, -9.0 / 20)))   // −4 dB re −18 → −9 dB re −23
        let b = try tone("b.wav", 500, amplitude: 0.1, channels: 1)
        tracks.append((URL(fileURLWithPath: b).lastPathComponent, 500, -1))           // untagged: measured
        let c = try tone("c-src.wav", 700, amplitude: 0.2)
        try Self.ffmpeg(["-i", c, "-c:a", "libvorbis", "-q:a", "6", "-metadata", "REPLAYGAIN_TRACK_GAIN=+3.00 dB",
                         dir.appendingPathComponent("c.ogg").path])
        tracks.append(("c.ogg", 700, 0.2 / 2.0.squareRoot() * pow(10, -2.0 / 20)))
        let d = try tone("d-src.wav", 900, amplitude: 0.3)
        _ = try ExternalTool.check("opusenc", ["--quiet", "--comment", "R128_TRACK_GAIN=-768", d, dir.appendingPathComponent("d.opus").path])
        tracks.append(("d.opus", 900, 0.3 / 2.0.squareRoot() * pow(10, -3.0 / 20)))
        let e = try tone("e-src.wav", 1100, amplitude: 0.25)
        try Self.ffmpeg(["-i", e, "-c:a", "libmp3lame", "-b:a", "192k", "-id3v2_version", "3",
                         "-metadata", "REPLAYGAIN_TRACK_GAIN=+1.00 dB", dir.appendingPathComponent("e.mp3").path])
        tracks.append(("e.mp3", 1100, 0.25 / 2.0.squareRoot() * pow(10, -4.0 / 20)))
        try Data(("#EXTM3U\n" + tracks.map { "#EXTINF:1,\($0.0)\n\($0.0)\n" }.joined()).utf8)
            .write(to: dir.appendingPathComponent("list.m3u8"))
        let path = try Self.session(dir, sound: "list.m3u8", seconds: 7.4)
        let (out, events) = try Self.render(path)
        #expect(events.compactMap { if case .title(_, let t) = $0 { t } else { nil } } == ["a", "b", "c", "d", "e"])
        for (i, track) in tracks.enumerated() {
            // The middle of each track (lossy codecs pad their ends by a few ms).
            let from = Double(i) * 1.5 + 0.5, to = Double(i) * 1.5 + 1.0
            let f = Self.frequency(out, from: from, to: to)
            #expect(abs(f - track.1) < 2, "track \(i) (\(track.0)) plays \(f) Hz")
            let rms = SignalAnalysis.rms(Self.left(out, from: from, to: to))
            if track.2 > 0 {
                #expect(abs(Self.db(rms / track.2)) < 0.5, "\(track.0): \(Self.db(rms)) dBFS, expected \(Self.db(track.2))")
            } else {
                // Measured: a tone at −23 LUFS (stereo, K-weighting near 0 dB at 500 Hz).
                let segment = (Int(from * Self.rate)..<Int(to * Self.rate)).flatMap { [out[2 * $0], out[2 * $0 + 1]] }
                let loudness = try LoudnessMeter.measure(AudioBuffer(samples: segment, channelCount: 2, sampleRate: Self.rate)).integrated
                #expect(abs((loudness ?? 0) + 23) < 0.5, "\(track.0): \(loudness ?? 0) LUFS")
            }
        }
    }

    /// Three pieces of one sine (24-bit FLAC, tagged +5 dB: a gain of exactly 0 dB at the
    /// −23 LUFS reference), cut between cycles, join gaplessly: the render is the unbroken
    /// sine, sample for sample; and the same bits at block sizes 512 and 7.
    @Test func gaplessJoinsAreSampleAccurate() throws {
        let dir = try TestEnvironment.temporaryDirectory("cabin-playlist")
        defer { try? FileManager.default.removeItem(at: dir) }
        let whole = dir.appendingPathComponent("whole.wav").path
        try Self.sox(["-n", "-r", "48000", "-c", "2", "-b", "24", whole, "synth", "1.6", "sine", "1000", "vol", "0.3"])
        let cuts = [0, 30001, 71235, 76800]
        var names: [String] = []
        for i in 0..<3 {
            let name = "part\(i).flac"
            let wav = dir.appendingPathComponent("p\(i).wav").path
            try Self.sox([whole, wav, "trim", "\(cuts[i])s", "\(cuts[i + 1] - cuts[i])s"])
            try Self.ffmpeg(["-i", wav, "-c:a", "flac", "-sample_fmt", "s32", "-metadata", "REPLAYGAIN_TRACK_GAIN=+5.00 dB",
                             dir.appendingPathComponent(name).path])
            names.append(name)
        }
        try Data("[playlist]\nNumberOfEntries=3\n\(names.enumerated().map { "File\($0 + 1)=\($1)\nTitle\($0 + 1)=piece\n" }.joined())Version=2\n".utf8)
            .write(to: dir.appendingPathComponent("list.pls"))
        // The session outlasts the playlist (its end declick falls on silence); a layer starts
        // with the mixer's 5 ms declick ramp, so the comparison starts at 10 ms.
        let path = try Self.session(dir, sound: "list.pls", seconds: 1.7)
        let source = try SoundFile.read(whole).samples
        let (out, _) = try Self.render(path)
        #expect(out.count == 2 * 81600)
        var worst = 0.0, at = 0
        for i in 960..<min(out.count, source.count) where abs(Double(out[i] - source[i])) > worst {
            worst = abs(Double(out[i] - source[i]))
            at = i / 2
        }
        #expect(SignalAnalysis.peak(out[source.count...]) == 0, "the playlist ends at 1.6 s")
        #expect(worst < 1e-5, "the render departs from the sine by \(worst) at frame \(at) (joins at \(cuts[1]) and \(cuts[2]))")
        let (small, _) = try Self.render(path, block: 7)
        #expect(small == out, "block size 7 renders other bits than 512")
    }

    /// `"crossfade": "1s"`: the end of one track overlaps the next equal-power — in the
    /// middle both tones sound at −3 dB and the level holds; the session is a second shorter.
    @Test func crossfadeOverlapsTracksEqualPower() throws {
        let dir = try TestEnvironment.temporaryDirectory("cabin-playlist")
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("music"), withIntermediateDirectories: true)
        for (name, f) in [("1 first.wav", 300), ("2 second.wav", 700)] {
            try Self.sox(["-n", "-r", "48000", "-c", "2", dir.appendingPathComponent("music/" + name).path,
                          "synth", "2", "sine", "\(f)", "vol", "0.2"])
        }
        let path = try Self.session(dir, sound: "music/", seconds: 3.5, options: "\"crossfade\": \"1s\"")
        let (out, events) = try Self.render(path)
        #expect(events.compactMap { if case .title(_, let t) = $0 { t } else { nil } } == ["1 first", "2 second"])
        // Each track at its own level (both at −23 LUFS; K-weighting makes their RMS differ a little).
        let level = SignalAnalysis.rms(Self.left(out, from: 0.2, to: 0.8))
        let level2 = SignalAnalysis.rms(Self.left(out, from: 2.2, to: 2.9))
        let middle = Self.left(out, from: 1.45, to: 1.55)
        let low = Self.component(middle, 300), high = Self.component(middle, 700)
        #expect(abs(Self.db(low / level) + 3) < 0.5 && abs(Self.db(high / level2) + 3) < 0.5,
                "in the middle of the crossfade: 300 Hz at \(Self.db(low / level)) dB, 700 Hz at \(Self.db(high / level2)) dB")
        #expect(abs(Self.frequency(out, from: 2.2, to: 2.9) - 700) < 2)
        #expect(SignalAnalysis.rms(Self.left(out, from: 3.05, to: 3.45)) == 0, "the second track ends at 3 s")
    }

    /// Shuffle: every track once before any repeats, the same order for the same seed, and
    /// another order for other seeds.
    @Test func shuffleIsSeededAndPlaysEveryTrackOncePerPass() throws {
        let dir = try TestEnvironment.temporaryDirectory("cabin-playlist")
        defer { try? FileManager.default.removeItem(at: dir) }
        let frequencies = [300, 500, 700, 900, 1100]
        for f in frequencies {
            try Self.sox(["-n", "-r", "48000", "-c", "2", dir.appendingPathComponent("t\(f).wav").path, "synth", "0.5", "sine", "\(f)", "vol", "0.2"])
        }
        func order(seed: Int) throws -> [Int] {
            let path = try Self.session(dir, sound: "./", seconds: 5, options: "\"shuffle\": true", loop: true, seed: seed)
            let (out, _) = try Self.render(path)
            return (0..<10).map { i in
                let f = Self.frequency(out, from: Double(i) * 0.5 + 0.1, to: Double(i) * 0.5 + 0.4)
                return frequencies.min { abs(Double($0) - f) < abs(Double($1) - f) }!
            }
        }
        let first = try order(seed: 1)
        #expect(Set(first.prefix(5)) == Set(frequencies) && Set(first.suffix(5)) == Set(frequencies), "\(first)")
        #expect(first[4] != first[5], "a pass starts with the track the last one ended on: \(first)")
        #expect(try order(seed: 1) == first)
        let others = try [2, 3, 4].map { try order(seed: $0) }
        #expect(others.contains { $0 != first }, "seeds 1–4 all shuffle alike: \(first)")
        #expect(first.prefix(5).map { $0 } != frequencies || others.contains { Array($0.prefix(5)) != frequencies })
    }

    /// Next: the track playing fades out and the next fades in, equal-power over a second.
    @Test func nextCrossfadesToTheNextTrack() throws {
        let dir = try TestEnvironment.temporaryDirectory("cabin-playlist")
        defer { try? FileManager.default.removeItem(at: dir) }
        for (name, f) in [("a.wav", 300), ("b.wav", 700)] {
            try Self.sox(["-n", "-r", "48000", "-c", "2", dir.appendingPathComponent(name).path, "synth", "4", "sine", "\(f)", "vol", "0.2"])
        }
        try Data("a.wav\nb.wav\n".utf8).write(to: dir.appendingPathComponent("l.m3u"))
        let path = try Self.session(dir, sound: "l.m3u", seconds: 3)
        let (out, events) = try Self.render(path, skipAt: 48000)
        #expect(events.compactMap { if case .title(_, let t) = $0 { t } else { nil } } == ["a", "b"])
        #expect(abs(Self.frequency(out, from: 0.2, to: 0.95) - 300) < 2)
        let level = SignalAnalysis.rms(Self.left(out, from: 0.2, to: 0.9))
        // The switch starts after the block already in the ring: within 512 frames of 1 s.
        let level2 = SignalAnalysis.rms(Self.left(out, from: 2.1, to: 2.9))
        let middle = Self.left(out, from: 1.5, to: 1.52)
        #expect(abs(Self.db(Self.component(middle, 300) / level) + 3) < 0.7 && abs(Self.db(Self.component(middle, 700) / level2) + 3) < 0.7)
        #expect(abs(Self.frequency(out, from: 2.1, to: 2.9) - 700) < 2)
        // Both at −23 LUFS: their RMS differs only by K-weighting (300 vs 700 Hz).
        #expect(abs(Self.db(level2 / level)) < 0.5)
    }

    /// A missing file and a file that is not audio are skipped with one line each; the
    /// good tracks play back to back.
    @Test func unplayableTracksAreSkippedWithOneLineEach() throws {
        let dir = try TestEnvironment.temporaryDirectory("cabin-playlist")
        defer { try? FileManager.default.removeItem(at: dir) }
        for (name, f) in [("a.wav", 300), ("b.wav", 700)] {
            try Self.sox(["-n", "-r", "48000", "-c", "2", dir.appendingPathComponent(name).path, "synth", "1", "sine", "\(f)", "vol", "0.2"])
        }
        try Data("not audio at all\n".utf8).write(to: dir.appendingPathComponent("junk.wav"))
        try Data("a.wav\nmissing.flac\njunk.wav\nhttps://radio.invalid/live.mp3\nb.wav\n".utf8).write(to: dir.appendingPathComponent("l.m3u"))
        let path = try Self.session(dir, sound: "l.m3u", seconds: 2)
        let out = dir.appendingPathComponent("out.wav").path
        let result = try ExternalTool.cabin(["render", path, "-o", out])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stderr.split(separator: "\n").filter { $0.contains("skipped") }
        #expect(lines.count == 3, "\(result.stderr)")
        #expect(lines.contains { $0.contains("missing.flac") } && lines.contains { $0.contains("junk.wav") }
                && lines.contains { $0.contains("radio.invalid") }, "\(result.stderr)")
        let played = try SoundFile.read(out).samples
        #expect(abs(Self.frequency(played, from: 0.2, to: 0.8) - 300) < 2)
        #expect(abs(Self.frequency(played, from: 1.2, to: 1.8) - 700) < 2)
    }

    /// Playlist files as players write them: M3U with comments and `file://` URLs, PLS in
    /// any `FileN` order, Windows separators, paths relative to the playlist's folder.
    @Test func playlistFilesResolveAgainstTheirFolder() {
        let m3u = "#EXTM3U\r\n#EXTINF:123,Artist - Song\r\nsongs\\one.flac\r\n/abs/two.mp3\r\nfile:///music/three%20x.ogg\r\nhttp://radio.example/live\r\n"
        #expect(PlaylistSource.parseM3U(m3u, folder: "/home/me/lists") == [
            .file("/home/me/lists/songs/one.flac"), .file("/abs/two.mp3"), .file("/music/three x.ogg"), .station("http://radio.example/live"),
        ])
        let pls = "[playlist]\nFile2=b.ogg\nTitle2=B\nFile1=a.flac\nNumberOfEntries=2\nVersion=2\n"
        #expect(PlaylistSource.parsePLS(pls, folder: "/m") == [.file("/m/a.flac"), .file("/m/b.ogg")])
    }

    /// Documents: a playlist sound with its options validates, reads back as written, and
    /// bad options are one located line each.
    @Test func playlistOptionsInDocuments() throws {
        let ok = """
            { "cabin": 1, "duration": "1h", "layers": { "radio": { "bus": "radio", "sound": "/home/me/Music/", "loop": true,
              "playlist": { "shuffle": true, "crossfade": "4s", "replayGain": "album" } } },
              "cues": [ { "at": 0, "start": "radio" } ] }
            """
        let read = SessionReader.read(Array(ok.utf8), file: "s.json")
        let layer = try #require(read.document?.layers.first)
        #expect(layer.sound == .playlist("/home/me/Music/"))
        #expect(layer.playlist == PlaylistOptions(shuffle: true, crossfadeSeconds: 4, gainMode: .album))
        let again = SessionReader.read(Array(read.document!.json().utf8), file: "again.json")
        #expect(again.document?.layers.first?.playlist == layer.playlist)
        let bad = """
            { "cabin": 1, "duration": "1h", "layers": { "radio": { "bus": "radio", "sound": "radio/lofi",
              "playlist": { "crossfade": "40s", "replayGain": "loud" } } } }
            """
        let lines = SessionReader.read(Array(bad.utf8), file: "bad.json").diagnostics.map(\.description)
        #expect(lines.count == 3, "\(lines)")
        #expect(lines.contains { $0.contains("layers.radio.playlist.crossfade") && $0.contains("at most 30 s") })
        #expect(lines.contains { $0.contains("layers.radio.playlist.replayGain") && $0.contains("\"track\" or \"album\"") })
        #expect(lines.contains { $0.contains("layers.radio.playlist:") && $0.contains("go with a playlist sound") })
    }
}
