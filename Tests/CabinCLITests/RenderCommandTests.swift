import CabinIO
import CabinTestSupport
import Foundation
import Testing

@Suite struct RenderCommandTests {
    static let session = """
        { "cabin": 1, "title": "Rain test", "duration": "4s",
          "parameters": { "speed": { "value": 62, "min": 0, "max": 80 } },
          "layers": {
            "engine": { "bus": "engine", "sound": "synth:brown-noise", "loop": true,
                        "pitch": { "parameter": "speed", "map": [[0, 0.7], [80, 1.4]] } },
            "rain": { "bus": "ambient", "sound": "synth:pink-noise", "loop": true }
          },
          "cues": [
            { "at": 0, "start": ["engine", "rain"], "fadeIn": "1s" },
            { "at": "1s", "set": "speed", "to": 20, "over": "2s" },
            { "at": "3s", "stop": ["engine", "rain"], "fadeOut": "900ms" }
          ] }
        """

    static func write(_ text: String, name: String = "s.json") throws -> (dir: URL, path: String) {
        let dir = try TestEnvironment.temporaryDirectory("cabin-render")
        let path = dir.appendingPathComponent(name).path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return (dir, path)
    }

    @Test func rendersBitIdenticalFilesAtEveryBlockSize() throws {
        let (dir, session) = try Self.write(Self.session)
        var files: [Data] = []
        for block in [1, 7, 64, 512] {
            let out = dir.appendingPathComponent("b\(block).wav").path
            let result = try ExternalTool.cabin(["render", session, "-o", out, "--block-size", "\(block)", "--bits", "24"])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stderr.isEmpty, "no progress bar when stderr is not a terminal")
            #expect(result.stdout.hasPrefix("\(out): 0:04.000 of Rain test at 48000 Hz (WAV 24-bit), rendered in "))
            files.append(try Data(contentsOf: URL(fileURLWithPath: out)))
        }
        #expect(files.allSatisfy { $0 == files[0] })
        let info = try ExternalTool.cabin(["info", "--json", dir.appendingPathComponent("b512.wav").path])
        #expect(info.stdout.contains("\"frames\" : 192000"))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix("cabin-tmp") }
        #expect(leftovers.isEmpty)
    }

    @Test func fromAndToWriteAPart() throws {
        let (dir, session) = try Self.write(Self.session)
        let whole = dir.appendingPathComponent("whole.wav").path, part = dir.appendingPathComponent("part.wav").path
        #expect(try ExternalTool.cabin(["render", session, "-o", whole, "--bits", "32f"]).status == 0)
        #expect(try ExternalTool.cabin(["render", session, "-o", part, "--bits", "32f", "--from", "1.5s", "--to", "2500ms"]).status == 0)
        let wholeData = try Data(contentsOf: URL(fileURLWithPath: whole)), partData = try Data(contentsOf: URL(fileURLWithPath: part))
        // The sample data ends each file (2 channels × 4 bytes per frame): compare it.
        let wholeSamples = wholeData.suffix(192000 * 8), partSamples = partData.suffix(48000 * 8)
        let start = wholeSamples.startIndex + 72000 * 8
        #expect(partSamples.elementsEqual(wholeSamples[start..<(start + 48000 * 8)]))
    }

    @Test func brokenSessionWritesNothingAndExits1() throws {
        let (dir, session) = try Self.write(#"{ "cabin": 1, "cues": [ { "at": "soon", "mark": "x" } ] }"#)
        let out = dir.appendingPathComponent("out.wav").path
        let result = try ExternalTool.cabin(["render", session, "-o", out])
        #expect(result.status == 1)
        #expect(result.stderr == "\(session):1:33: error: cues[0].at: \"soon\" is not a duration: use 1h2m3s, 90s, 250ms or m:s\n")
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    /// A sound file the document names but that is not there is a document error, before
    /// anything renders (it used to render silence and exit 0).
    @Test func missingSoundFileIsADocumentErrorAndNothingIsWritten() throws {
        let (dir, session) = try Self.write("""
            { "cabin": 1, "duration": "1s",
              "layers": { "hum": { "bus": "engine", "sound": "sounds/hum.flac", "loop": true },
                          "rain": { "bus": "ambient", "sound": "synth:pink-noise", "loop": true } },
              "cues": [ { "at": 0, "start": ["hum", "rain"] } ] }
            """)
        let out = dir.appendingPathComponent("out.wav").path
        let result = try ExternalTool.cabin(["render", session, "-o", out])
        #expect(result.status == 1)
        #expect(result.stderr == "\(session):2:50: error: layers.hum.sound: sounds/hum.flac: no such sound file in \(dir.path)\n")
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    @Test func interruptedRenderLeavesNothing() throws {
        let (dir, session) = try Self.write("""
            { "cabin": 1, "duration": "1h",
              "layers": { "rain": { "bus": "ambient", "sound": "synth:pink-noise", "loop": true } },
              "cues": [ { "at": 0, "start": "rain" } ] }
            """)
        let out = dir.appendingPathComponent("long.wav").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ExternalTool.cabinBinary)
        process.environment = ExternalTool.childEnvironment()
        process.arguments = ["render", session, "-o", out, "--block-size", "64"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        Thread.sleep(forTimeInterval: 0.5)
        let started = Date()
        process.interrupt()
        process.waitUntilExit()
        #expect(Date().timeIntervalSince(started) < 1, "stops at once")
        #expect(process.terminationStatus == 130)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["s.json"])
    }

    @Test func badOptionsAreOneLine() throws {
        let (dir, session) = try Self.write(Self.session)
        let out = dir.appendingPathComponent("x.flac").path
        let result = try ExternalTool.cabin(["render", session, "-o", out, "--bits", "32f"])
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix("Error: FLAC has no float samples: use --bits 16 or 24, or write a .wav"))
    }

    /// The extension names the format that is written (and the summary says it); a name
    /// that names none is refused before anything is rendered or created.
    @Test func theExtensionNamesTheFormat() throws {
        let (dir, session) = try Self.write(Self.session)
        for (name, container, encoding, summary) in [
            ("a.wav", "WAV", "PCM_16", "WAV 16-bit"), ("a.flac", "FLAC", "PCM_16", "FLAC 16-bit"),
            ("a.aiff", "AIFF", "PCM_16", "AIFF 16-bit"), ("a.ogg", "OGG", "VORBIS", "Ogg Vorbis q5"),
            ("a.opus", "OGG", "OPUS", "Ogg Opus 96 kb/s"), ("a.mp3", "MPEG", "MP3", "MP3 VBR -V2"),
        ] {
            let out = dir.appendingPathComponent(name).path
            let result = try ExternalTool.cabin(["render", session, "-o", out])
            #expect(result.status == 0 && result.stdout.contains("(\(summary))"), "\(name): \(result.stdout)\(result.stderr)")
            let info = try SoundFile.info(out)
            #expect(info.container == container && info.encoding == encoding, "\(name): \(info.formatLabel)")
            #expect(abs(info.duration - 4) < 0.1, "\(name): \(info.duration) s")
        }
        for name in ["noext", "a.txt", "a.mp4"] {
            let out = dir.appendingPathComponent(name).path
            let result = try ExternalTool.cabin(["render", session, "-o", out])
            #expect(result.status == 1)
            #expect(result.stderr == "cabin: error: \(out): the name does not say which format to write: end it with one of .wav .flac .aiff .aif .opus .ogg .oga .mp3 (or '-' for WAV on standard output)\n")
            #expect(!FileManager.default.fileExists(atPath: out))
        }
        // libsndfile gives each Ogg stream a random serial; Cabin writes its own, so the same
        // render is the same file (and stays a valid Ogg file: ffprobe checks every page's CRC).
        for name in ["a.ogg", "a.opus"] {
            let first = dir.appendingPathComponent(name).path, second = dir.appendingPathComponent("again-" + name).path
            let again = try ExternalTool.cabin(["render", session, "-o", second])
            #expect(again.status == 0, "\(again.stderr)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: first)) == Data(contentsOf: URL(fileURLWithPath: second)), "\(name) twice")
            let probe = try ExternalTool.run("ffprobe", ["-v", "error", "-show_entries", "stream=codec_name", "-of", "csv=p=0", second])
            #expect(probe.status == 0 && probe.stderr.isEmpty && probe.stdout == (name == "a.ogg" ? "vorbis\n" : "opus\n"),
                    "\(name): \(probe.stdout)\(probe.stderr)")
        }
        let null = try ExternalTool.cabin(["render", session, "-o", "/dev/null"])
        #expect(null.status == 0 && null.stdout.contains("(WAV 16-bit)"), "a device takes a WAV stream")
    }

    @Test func hapticsWritesASampleAlignedHapticTrack() throws {
        let (dir, session) = try Self.write("""
            { "cabin": 1, "title": "Ignition", "duration": "3s",
              "cues": [ { "at": 0, "haptic": "seatbelt" }, { "at": "0.5s", "haptic": "engine-start" },
                        { "at": "2.9s", "haptic": "tick" } ] }
            """)
        let out = dir.appendingPathComponent("mix.wav").path, haptics = dir.appendingPathComponent("h.wav").path
        let result = try ExternalTool.cabin(["render", session, "-o", out, "--haptics", haptics, "--bits", "24"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty)
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines.last == "\(haptics): haptic track, 3 cues (3 patterns), mono, sample-aligned with \(out)")
        let info = try ExternalTool.cabin(["info", "--json", out, haptics])
        #expect(info.stdout.components(separatedBy: "\"frames\" : 144000").count - 1 == 2, "same length")
        #expect(info.stdout.components(separatedBy: "\"sampleRate\" : 48000").count - 1 == 2, "same rate")
        #expect(info.stdout.contains("\"channels\" : 1"))

        // Off the main mix by default: the mix of a haptics-only session is silent; with
        // --haptics-in-mix it is not.
        let inMix = dir.appendingPathComponent("in-mix.wav").path
        #expect(try ExternalTool.cabin(["render", session, "-o", inMix, "--haptics-in-mix", "--bits", "24"]).status == 0)
        let silentData = try Data(contentsOf: URL(fileURLWithPath: out)), mixedData = try Data(contentsOf: URL(fileURLWithPath: inMix))
        #expect(silentData.suffix(144000 * 6).allSatisfy { $0 == 0 })
        #expect(!mixedData.suffix(144000 * 6).allSatisfy { $0 == 0 })
    }

    @Test func hapticOptionsAreChecked() throws {
        let (dir, session) = try Self.write(Self.session)
        let out = dir.appendingPathComponent("x.wav").path
        let same = try ExternalTool.cabin(["render", session, "-o", out, "--haptics", out])
        #expect(same.status == 64)
        #expect(same.stderr.hasPrefix("Error: --haptics must name another file than -o\n"))
        let missing = try Self.write(#"{ "cabin": 1, "duration": "1s", "cues": [ { "at": 0, "haptic": "no-such-pattern" } ] }"#)
        let result = try ExternalTool.cabin(["render", missing.path, "-o", missing.dir.appendingPathComponent("m.wav").path])
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("\(missing.path):1:64: error: cues[0].haptic: no-such-pattern: not in the haptic pattern library ("))
        #expect(result.stderr.split(separator: "\n").count == 1)
        #expect(!FileManager.default.fileExists(atPath: missing.dir.appendingPathComponent("m.wav").path))
    }

    @Test func everyLibraryPatternPassesStrictCheck() throws {
        let folder = TestEnvironment.packageRoot.appendingPathComponent("Patterns/haptics")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".ahap") }.sorted()
        #expect(files.count >= 8)
        let result = try ExternalTool.cabin(["haptics", "check", "--strict"] + files.map { folder.appendingPathComponent($0).path })
        #expect(result.status == 0, "\(result.stdout)")
        #expect(result.stdout.split(separator: "\n").allSatisfy { $0.contains(": ok (") })
    }

    /// `--loudness` sets the level a session renders at (a preset's own target, another, or
    /// none); a bad value is one line.
    @Test func loudnessOptionSetsTheRenderedLevel() throws {
        let (dir, session) = try Self.write(Self.session)
        func render(_ name: String, _ args: [String]) throws -> (path: String, integrated: Double) {
            let out = dir.appendingPathComponent(name).path
            let result = try ExternalTool.cabin(["render", "-o", out] + args)
            #expect(result.status == 0, "\(result.stderr)")
            let info = try ExternalTool.cabin(["info", "--json", out])
            let array = try #require(try JSONSerialization.jsonObject(with: Data(info.stdout.utf8)) as? [[String: Any]])
            let loudness = try #require(array.first?["loudness"] as? [String: Any])
            return (out, try #require(loudness["integrated"] as? Double))
        }
        let preset = try render("p.wav", ["--preset", "ambient", "--minutes", "5"])
        #expect(abs(preset.integrated - -20) <= 1, "the preset's own target: \(preset.integrated)")
        let quieter = try render("q.wav", ["--preset", "ambient", "--minutes", "5", "--loudness", "-30"])
        #expect(abs(quieter.integrated - preset.integrated - -10) <= 0.1, "\(quieter.integrated)")
        // A document without a target plays its gains as written: `off` changes nothing.
        let asWritten = try render("w.wav", [session]), off = try render("o.wav", [session, "--loudness", "off"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: asWritten.path)) == Data(contentsOf: URL(fileURLWithPath: off.path)))
        let targeted = try render("t.wav", [session, "--loudness", "-26"])
        // 4 s of repitched noise with fades: the estimate's coarsest case (±1.5 LU).
        #expect(abs(targeted.integrated - -26) <= 1.5, "\(targeted.integrated)")
        let bad = try ExternalTool.cabin(["render", "--preset", "ambient", "-o", dir.appendingPathComponent("x.wav").path,
                                          "--loudness", "-5"])
        #expect(bad.status == 64)
        #expect(bad.stderr.contains("--loudness must be a number of LUFS from -40 to -10 or 'off', not '-5'"), "\(bad.stderr)")
    }

    /// `--seed`: the same seed renders the same bytes, another seed other ones.
    @Test func seedOptionVariesTheRender() throws {
        let dir = try TestEnvironment.temporaryDirectory("cabin-render")
        func render(_ name: String, _ seed: String) throws -> Data {
            let out = dir.appendingPathComponent(name).path
            let result = try ExternalTool.cabin(["render", "--preset", "ambient", "--minutes", "1", "-o", out, "--seed", seed])
            #expect(result.status == 0, "\(result.stderr)")
            return try Data(contentsOf: URL(fileURLWithPath: out))
        }
        let a = try render("a.wav", "7"), b = try render("b.wav", "7"), c = try render("c.wav", "8")
        #expect(a == b)
        #expect(a != c)
    }
}
