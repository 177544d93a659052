import CabinIO
import CabinTestSupport
import Foundation
import Testing

@Suite struct SessionCommandTests {
    @Test func validatePrintsEveryErrorAndExits1() throws {
        let dir = try TestEnvironment.temporaryDirectory("cabin-cli")
        let bad = dir.appendingPathComponent("bad.json").path
        try Data("{\n  \"cabin\": 1,\n  \"cues\": [ { \"at\": \"3x\", \"start\": \"engine\" } ]\n}\n".utf8)
            .write(to: URL(fileURLWithPath: bad))
        let result = try ExternalTool.cabin(["session", "validate", bad])
        #expect(result.status == 1)
        #expect(result.stdout.split(separator: "\n").map(String.init) == [
            "\(bad):3:21: error: cues[0].at: \"3x\" is not a duration: use 1h2m3s, 90s, 250ms or m:s",
            "\(bad):3:36: error: cues[0].start: no layer named \"engine\"",
        ])
    }

    @Test func validateSaysOk() throws {
        let dir = try TestEnvironment.temporaryDirectory("cabin-cli")
        let good = dir.appendingPathComponent("good.json").path
        try Data(#"{ "cabin": 1, "duration": "25m", "layers": { "rain": { "bus": "ambient", "sound": "synth:pink-noise", "loop": true } }, "cues": [ { "at": 0, "start": "rain", "fadeIn": "5s" } ] }"#.utf8)
            .write(to: URL(fileURLWithPath: good))
        let result = try ExternalTool.cabin(["session", "validate", good, dir.appendingPathComponent("none.json").path])
        #expect(result.status == 1)
        #expect(result.stdout == "\(good): ok (25m, 1 layer, 1 cue)\n")
        #expect(result.stderr.hasSuffix("none.json: no such file\n"))
    }
}

/// Absurd numbers on the command line: one line and the usage status, never a crash.
@Suite struct CommandNumberTests {
    @Test func timeOptionsPastTwentyFourHoursAreRefused() throws {
        for args in [["render", "--preset", "drive", "--to", "99999999999999999999999h", "-o", "/tmp/never.wav"],
                     ["render", "--preset", "drive", "--from", "9999999999999h", "-o", "/tmp/never.wav"],
                     ["play", "--preset", "drive", "--from", "25h"]] {
            let result = try ExternalTool.cabin(args)
            #expect(result.status == 64, "\(args): \(result.stderr)")
            #expect(result.stderr.contains("is too long: a session lasts at most 24h"), "\(result.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: "/tmp/never.wav"))
    }

    @Test func hugePresetNumbersAreRefused() throws {
        let result = try ExternalTool.cabin(["play", "--preset", "drive", "--minutes", "99999999999999999999"])
        #expect(result.status == 64)
        #expect(result.stderr == "cabin: error: --minutes must be a whole number of minutes from 25 to 240, not '99999999999999999999'\n")
    }
}

/// Inputs that would cost far more than their size: bounded reads and bounded work.
@Suite struct CostlyInputTests {
    @Test(.timeLimit(.minutes(1))) func endlessStandardInputStopsAtTheLimit() throws {
        let result = try ExternalTool.run("/bin/sh", ["-c", "\(ExternalTool.cabinBinary) session validate - < /dev/zero"])
        #expect(result.status == 1)
        #expect(result.stderr == "cabin: error: standard input: is more than 16777216 bytes; a session document is at most 16777216 bytes\n")
    }

    @Test(.timeLimit(.minutes(1))) func aHugeUnknownKeyIsReportedShortAndFast() throws {
        let dir = try TestEnvironment.temporaryDirectory("cabin-cli")
        let path = dir.appendingPathComponent("key.json").path
        let key = String(repeating: "k", count: 10_000_000)
        try Data("{\"cabin\": 1, \"\(key)\": 1}".utf8).write(to: URL(fileURLWithPath: path))
        let result = try ExternalTool.cabin(["session", "validate", path])
        #expect(result.status == 1)
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 1)
        #expect(lines.first.map { $0.count < 300 } == true, "\(result.stdout.prefix(400))")
        #expect(result.stdout.contains("unknown key \"kkkkkkkk"))
    }

    /// A forged header does not size memory: an MP3 whose Xing/Info frame count says
    /// 0x7fffffff frames (2.5 × 10¹² samples) and a FLAC whose total samples say 2³⁶ − 1
    /// used to abort the render asking for terabytes. Now the MP3 plays what it holds and the
    /// FLAC is one located warning (its layer silent), each render in bounded memory.
    @Test(.timeLimit(.minutes(1))) func forgedHeadersDoNotSizeMemory() throws {
        let dir = try TestEnvironment.temporaryDirectory("cabin-cli-forged")
        let flac = dir.appendingPathComponent("tone.flac").path, mp3 = dir.appendingPathComponent("tone.mp3").path
        try ExternalTool.check("sox", ["-n", "-r", "48000", "-c", "1", flac, "synth", "1", "sine", "1000"])
        try ExternalTool.check("ffmpeg", ["-v", "quiet", "-y", "-f", "lavfi", "-i", "sine=f=1000:d=2", "-b:a", "128k", mp3])
        var f = try Data(contentsOf: URL(fileURLWithPath: flac))
        #expect(f.prefix(4) == Data("fLaC".utf8))
        f[21] |= 0x0F
        f.replaceSubrange(22..<26, with: [0xFF, 0xFF, 0xFF, 0xFF])   // STREAMINFO total samples: 2^36 - 1
        try f.write(to: URL(fileURLWithPath: flac))
        var m = try Data(contentsOf: URL(fileURLWithPath: mp3))
        let tag = try #require(m.firstRange(of: Data("Info".utf8)) ?? m.firstRange(of: Data("Xing".utf8))).lowerBound
        #expect(m[tag + 7] & 1 == 1, "the tag carries a frame count")
        m.replaceSubrange((tag + 8)..<(tag + 12), with: [0x7F, 0xFF, 0xFF, 0xFF])
        try m.write(to: URL(fileURLWithPath: mp3))
        // `info` gives the length that decodes, and says the header claims otherwise.
        let info = try ExternalTool.cabin(["info", mp3])
        #expect(info.status == 0 && info.stdout.contains("duration     0:02.0"), "\(info.stdout)")
        #expect(info.stdout.contains(": damaged or forged)") && info.stdout.contains("the header claims"), "\(info.stdout)")
        for (file, warning) in [("tone.mp3", nil), ("tone.flac", "tone.flac: truncated: the header promises 68719476735 frames but only 48000 could be decoded")] {
            let session = dir.appendingPathComponent("\(file).json").path
            try Data("""
                { "cabin": 1, "duration": "2s", "layers": { "a": { "bus": "ambient", "sound": "./\(file)", "loop": true } },
                  "cues": [ { "at": 0, "start": "a" } ] }
                """.utf8).write(to: URL(fileURLWithPath: session))
            let out = dir.appendingPathComponent("\(file).wav").path
            let result = try ExternalTool.run("/usr/bin/time", ["-f", "peak %M KB", ExternalTool.cabinBinary, "render", session, "-o", out])
            #expect(result.status == 0, "\(file): \(result.stderr)")
            let peak = try #require(result.stderr.split(separator: "\n").last { $0.hasPrefix("peak ") }
                .flatMap { Int($0.dropFirst(5).dropLast(3)) })
            #expect(peak < 100_000, "\(file): \(peak) KB at the peak")
            if let warning { #expect(result.stderr.contains(warning), "\(result.stderr)") } else {
                #expect(!result.stderr.contains("warning"), "\(result.stderr)")
                let rendered = try SoundFile.read(out)
                #expect(SignalAnalysis.rms(rendered.samples) > 0.001, "the MP3 plays what it holds")
            }
        }
    }

    /// A damaged MP3 (200 bytes overwritten) plays what can be decoded, and libmpg123's
    /// complaints ("error: dequantization failed!", "Note: Trying to resync...", several a
    /// frame) stay off the terminal.
    @Test func aDamagedMP3DoesNotFillTheTerminal() throws {
        let dir = try TestEnvironment.temporaryDirectory("cabin-cli")
        let mp3 = dir.appendingPathComponent("bad.mp3").path
        try ExternalTool.check("ffmpeg", ["-v", "quiet", "-y", "-f", "lavfi", "-i", "sine=f=1000:d=3", "-b:a", "128k", mp3])
        var bytes = try Data(contentsOf: URL(fileURLWithPath: mp3))
        var state: UInt64 = 3
        func next() -> Int {  // a fixed sequence (an LCG), so every run damages the same bytes
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int(state >> 33)
        }
        for _ in 0..<200 { bytes[2000 + next() % (bytes.count - 2000)] = UInt8(truncatingIfNeeded: next()) }
        try bytes.write(to: URL(fileURLWithPath: mp3))
        let session = dir.appendingPathComponent("bad.json").path
        try Data(#"{ "cabin": 1, "duration": "2s", "layers": { "a": { "bus": "ambient", "sound": "./bad.mp3" } }, "cues": [ { "at": 0, "start": "a" } ] }"#.utf8)
            .write(to: URL(fileURLWithPath: session))
        for arguments in [["render", session, "-o", dir.appendingPathComponent("bad.wav").path], ["info", mp3]] {
            let result = try ExternalTool.cabin(arguments)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            #expect(!result.stderr.contains("libmpg123") && !result.stderr.contains("resync"), "\(arguments): \(result.stderr)")
        }
    }

    /// A 150-byte AHAP with one transient at 3599.9 s: `haptics render` streams it (the hour
    /// of silence costs no memory), and three such patterns in a 2 s session heard in the
    /// mix make only the 2 s that are heard. Before: 5.4 GB and 138 s; 4 GB.
    @Test(.timeLimit(.minutes(2))) func farPatternsCostWhatIsHeard() throws {
        let dir = try TestEnvironment.temporaryDirectory("cabin-cli")
        for (i, time) in [3599.9, 3599.8, 3599.7].enumerated() {
            try Data(#"{"Version":1.0,"Pattern":[{"Event":{"Time":\#(time),"EventType":"HapticTransient","EventParameters":[{"ParameterID":"HapticIntensity","ParameterValue":1}]}}]}"#.utf8)
                .write(to: dir.appendingPathComponent("far\(i).ahap"))
        }
        func peakKB(_ arguments: [String]) throws -> Int {
            let result = try ExternalTool.run("/usr/bin/time", ["-f", "peak %M KB", ExternalTool.cabinBinary] + arguments)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            return try #require(result.stderr.split(separator: "\n").last { $0.hasPrefix("peak ") }
                .flatMap { Int($0.dropFirst(5).dropLast(3)) })
        }
        let wav = dir.appendingPathComponent("far.wav").path
        let rendered = try peakKB(["haptics", "render", dir.appendingPathComponent("far0.ahap").path, "--sample-rate", "8000", "-o", wav])
        #expect(rendered < 60_000, "haptics render: \(rendered) KB at the peak")
        #expect(try SoundFile.info(wav).frameCount > Int64(3599.9 * 8000))  // the whole hour is written

        let session = dir.appendingPathComponent("far.json").path
        try Data("""
            { "cabin": 1, "duration": "2s", "buses": { "haptics": -6 },
              "cues": [ { "at": 0, "haptic": "far0.ahap" }, { "at": "0.5s", "haptic": "far1.ahap" }, { "at": 1, "haptic": "far2.ahap" } ] }
            """.utf8).write(to: URL(fileURLWithPath: session))
        let mixed = try peakKB(["render", session, "--haptics-in-mix", "-o", dir.appendingPathComponent("mix.wav").path])
        #expect(mixed < 150_000, "a 2 s session: \(mixed) KB at the peak")
    }

    /// Names that are not in the libraries and files that are not there are document errors
    /// in `validate`, `render` and `play` alike — located, with the name meant — never a
    /// session that validates and then renders silence.
    @Test func unknownSoundsAndPatternsAreDocumentErrors() throws {
        let dir = try TestEnvironment.temporaryDirectory("cabin-cli")
        let path = dir.appendingPathComponent("silent.json").path
        try Data("""
            { "cabin": 1, "duration": "3s",
              "layers": { "a": { "bus": "ambient", "sound": "ambient/rian", "loop": true } },
              "cues": [ { "at": 0, "start": "a" }, { "at": "1s", "play": "sounds/missing.wav" },
                        { "at": "2s", "haptic": "tik" } ] }
            """.utf8).write(to: URL(fileURLWithPath: path))
        let expected = [
            "\(path):2:49: error: layers.a.sound: ambient/rian: not in the sound library (did you mean ambient/rain?)",
            "\(path):3:62: error: cues[1].play: sounds/missing.wav: no such sound file in \(dir.path)",
            "\(path):4:37: error: cues[2].haptic: tik: not in the haptic pattern library (did you mean tick?)",
        ]
        let validate = try ExternalTool.cabin(["session", "validate", path])
        #expect(validate.status == 1)
        #expect(validate.stdout.split(separator: "\n").map(String.init) == expected)
        let out = dir.appendingPathComponent("out.wav").path
        let render = try ExternalTool.cabin(["render", path, "-o", out])
        #expect(render.status == 1)
        #expect(render.stderr.split(separator: "\n").map(String.init) == expected)
        #expect(!FileManager.default.fileExists(atPath: out))
        // A preset option naming a sound that is not in the library is refused the same way.
        let preset = try ExternalTool.cabin(["render", "--preset", "ambient", "--sound", "rain", "-o", out])
        #expect(preset.status == 1)
        #expect(preset.stderr.contains("rain: not in the sound library (did you mean ambient/rain?)"))
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    /// A link inside the document's folder that leads outside it is refused like `..`; a
    /// sound file given where a session document goes is a session of one layer (from its
    /// own folder, so it never leaves it).
    @Test func linksOutOfTheFolderAreRefusedAndSoundFilesAreSessions() throws {
        let dir = try TestEnvironment.temporaryDirectory("cabin-cli")
        let outside = try TestEnvironment.temporaryDirectory("cabin-cli-outside")
        let secret = outside.appendingPathComponent("secret.wav").path
        try ExternalTool.check("sox", ["-n", "-r", "48000", "-c", "2", secret, "synth", "1", "sine", "440"])
        #expect(symlink(secret, dir.appendingPathComponent("link.wav").path) == 0)
        #expect(symlink(outside.path, dir.appendingPathComponent("sub").path) == 0)
        let path = dir.appendingPathComponent("s.json").path
        try Data("""
            { "cabin": 1, "duration": "1s",
              "cues": [ { "at": 0, "play": "link.wav" }, { "at": 0, "play": "sub/secret.wav" } ] }
            """.utf8).write(to: URL(fileURLWithPath: path))
        let result = try ExternalTool.cabin(["session", "validate", path])
        #expect(result.status == 1)
        let real = URL(fileURLWithPath: secret).resolvingSymlinksInPath().path
        #expect(result.stdout.split(separator: "\n").map(String.init) == [
            "\(path):2:32: error: cues[0].play: link.wav: leads outside the document's folder (to \(real)); copy the file into the document's folder instead",
            "\(path):2:65: error: cues[1].play: sub/secret.wav: leads outside the document's folder (to \(real)); copy the file into the document's folder instead",
        ])
        let out = dir.appendingPathComponent("x.wav").path
        let render = try ExternalTool.cabin(["render", secret, "-o", out])
        #expect(render.status == 0, "\(render.stderr)")
        #expect(render.stdout.hasPrefix("\(out): 0:01.000 of secret.wav at 48000 Hz (WAV 16-bit), rendered in "))
        #expect(FileManager.default.fileExists(atPath: out))
    }
}

/// Documents that would cost far more than they say: limits with their error line.
@Suite struct DocumentLimitTests {
    @Test func tooManyCuesAndTooLongASayAreErrors() throws {
        let dir = try TestEnvironment.temporaryDirectory("cabin-cli-limits")
        let cues = dir.appendingPathComponent("cues.json").path
        let rows = (0..<100_001).map { "{\"at\":\($0 % 60),\"mark\":\"m\"}" }.joined(separator: ",")
        try Data("{\"cabin\":1,\"duration\":\"1m\",\"cues\":[\(rows)]}".utf8).write(to: URL(fileURLWithPath: cues))
        let many = try ExternalTool.cabin(["session", "validate", cues])
        #expect(many.status == 1)
        #expect(many.stdout == "\(cues):1:35: error: cues: 100001 cues; a session has at most 100000\n")
        let say = dir.appendingPathComponent("say.json").path
        try Data("{\"cabin\":1,\"cues\":[{\"at\":0,\"say\":\"\(String(repeating: "word ", count: 40_000))\"}]}".utf8)
            .write(to: URL(fileURLWithPath: say))
        let long = try ExternalTool.cabin(["session", "validate", say])
        #expect(long.status == 1)
        #expect(long.stdout.hasPrefix("\(say):1:34: error: cues[0].say: \"say\" is 200000 characters; a spoken cue is at most 1000"))
        #expect(long.stdout.count < 400, "the text is not printed back whole")
    }

    /// A document of hundreds of thousands of cues stops at the parser's value limit, as it
    /// parses: it costs what a million values cost, not its whole tree (a 47 MB document of
    /// 1.5 M cues peaked at 1.23 GB when the cue limit was checked after parsing); a larger
    /// one is refused by its size before it is read.
    @Test(.timeLimit(.minutes(2))) func hugeDocumentsStopAsTheyAreRead() throws {
        let dir = try TestEnvironment.temporaryDirectory("cabin-cli-limits")
        func peak(_ arguments: [String]) throws -> (result: ExternalTool.Result, kilobytes: Int) {
            let result = try ExternalTool.run("/usr/bin/time", ["-f", "peak %M KB", ExternalTool.cabinBinary] + arguments)
            let kilobytes = try #require(result.stderr.split(separator: "\n").last { $0.hasPrefix("peak ") }
                .flatMap { Int($0.dropFirst(5).dropLast(3)) })
            return (result, kilobytes)
        }
        // 4 values before the cues, then 3 a cue (the object, its time, its mark): value 1,000,001 is cue 333,332.
        let many = dir.appendingPathComponent("many.json").path
        let rows = (0..<400_000).map { "{\"at\":\($0 % 60),\"mark\":\"m\"}" }.joined(separator: ",")
        try Data("{\"cabin\":1,\"duration\":\"1m\",\"cues\":[\(rows)]}".utf8).write(to: URL(fileURLWithPath: many))
        for command in [["session", "validate", many], ["render", many, "-o", dir.appendingPathComponent("x.wav").path]] {
            let (result, kilobytes) = try peak(command)
            #expect(result.status == 1)
            // validate prints its diagnostics on stdout, render on stderr (where time adds its line).
            let lines = (result.stdout + result.stderr).split(separator: "\n").filter { !$0.hasPrefix("peak ") && !$0.hasPrefix("Command exited") }
            #expect(lines.count == 1 && lines[0].hasPrefix("\(many):1:")
                    && lines[0].hasSuffix(": error: cues[333332]: more than 1000000 values: a session document holds at most 1000000 (10 for each of at most 100000 cues)"),
                    "\(command[0]): \(lines)")
            #expect(kilobytes < 400_000, "\(command[0]): \(kilobytes) KB at the peak")
            #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("x.wav").path))
        }
        let huge = dir.appendingPathComponent("huge.json").path
        let text = #"{"cabin":1,"cues":["# + String(repeating: #"{"at":1,"mark":"m"},"#, count: 900_000) + "1]}"
        try Data(text.utf8).write(to: URL(fileURLWithPath: huge))
        let (result, kilobytes) = try peak(["session", "validate", huge])
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("cabin: error: \(huge): is \(text.utf8.count) bytes; a session document is at most 16777216 bytes\n"))
        #expect(kilobytes < 60_000, "\(kilobytes) KB at the peak")
    }
}
