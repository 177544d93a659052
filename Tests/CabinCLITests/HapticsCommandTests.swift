import CabinTestSupport
import Foundation
import Testing

/// `cabin haptics …` on the real binary with the real fixtures.
@Suite struct HapticsCommandTests {
    static func fixture(_ name: String) -> String { TestEnvironment.sharedFixtures.appendingPathComponent(name).path }
    static let boing = fixture("ahap/apple__unityplugins__Boing.ahap")
    static let spin = fixture("ahap/apple__unityplugins__Spin.ahap")
    static let heartbeats = fixture("ahap/apple__unityplugins__Heartbeats.ahap")
    static let shotgun = fixture("haptic/Lofelt__NiceVibrations__ShotgunFire2.haptic")
    static let minimal = fixture("haptic/Lofelt__NiceVibrations__valid_required_v1.haptic")

    static func allFixtures() throws -> [String] {
        try SharedFixtures.files(in: "ahap").map { fixture("ahap/\($0)") }
            + SharedFixtures.files(in: "haptic").map { fixture("haptic/\($0)") }
    }

    @Test(.needsSharedFixtures) func checkLoadsEveryFixtureLenientlyWithItsWarnings() throws {
        let fixtures = try Self.allFixtures()
        let result = try ExternalTool.cabin(["haptics", "check"] + fixtures)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        // Every fixture shared/ holds (nine when this was written, fourteen now) loads.
        #expect(fixtures.count >= 9)
        #expect(lines.filter { $0.hasSuffix(")") && $0.contains(": ok (") }.count == fixtures.count)
        #expect(lines.contains("\(Self.boing): ok (0.267 s, 2 haptic events (1 transient), 2 curves)"))
        #expect(lines.contains("\(Self.spin):74:22: warning: Pattern[2].ParameterCurve.ParameterCurveControlPoints: trailing comma at the end of an array (accepted in lenient mode)"))
        #expect(lines.allSatisfy { $0.contains(": ok (") || $0.contains(": warning: ") })
    }

    @Test(.needsSharedFixtures) func strictCheckFailsSpinAtTheTrailingCommas() throws {
        let result = try ExternalTool.cabin(["haptics", "check", "--strict", Self.spin, Self.boing])
        #expect(result.status == 1)
        #expect(result.stdout == """
            \(Self.spin):74:22: error: Pattern[2].ParameterCurve.ParameterCurveControlPoints: trailing comma at the end of an array (accepted in lenient mode)
            \(Self.spin):90:22: error: Pattern[3].ParameterCurve.ParameterCurveControlPoints: trailing comma at the end of an array (accepted in lenient mode)
            \(Self.boing): ok (0.267 s, 2 haptic events (1 transient), 2 curves)

            """)
    }

    @Test(.needsSharedFixtures) func unreadableInputsAreOneLineAndExit1() throws {
        let dir = try TestEnvironment.temporaryDirectory("cabin-haptics")
        let broken = dir.appendingPathComponent("broken.ahap").path
        try Data(#"{"Pattern": [ {"Event": "#.utf8).write(to: URL(fileURLWithPath: broken))
        let cases: [([String], String)] = [
            (["check", "nope.ahap"], "cabin: error: nope.ahap: no such file\n"),
            (["show", dir.path], "cabin: error: \(dir.path): is a directory, not a document\n"),
            (["compile", broken], "\(broken):1:25: error: Pattern[0].Event: unexpected end of the document: expected a value\n"),
            (["render", "nope.haptic", "-o", dir.appendingPathComponent("x.wav").path], "cabin: error: nope.haptic: no such file\n"),
            (["plot", Self.boing, "-o", dir.path], "cabin: error: \(dir.path): is a directory; give a file name\n"),
            (["convert", Self.boing, "-o", "/nonexistent-folder/x.ahap"], "cabin: error: /nonexistent-folder/x.ahap: cannot write: no such folder /nonexistent-folder\n"),
            (["play", "nope.ahap", "--audio", "-D", "null"], "cabin: error: nope.ahap: no such file\n"),
        ]
        for (arguments, stderr) in cases {
            let result = try ExternalTool.cabin(["haptics"] + arguments)
            #expect(result.status == 1, "\(arguments)")
            #expect(result.stderr == stderr, "\(arguments)")
            #expect(result.stdout.isEmpty, "\(arguments)")
        }
    }

    @Test(.needsSharedFixtures) func compileJSONListsBreakpointsAndTransients() throws {
        let result = try ExternalTool.cabin(["haptics", "compile", Self.boing])
        #expect(result.status == 0)
        #expect(result.stdout == """
            {
              "duration": 0.265,
              "endTime": 0.267,
              "breakpoints": [
                {"time": 0.0, "intensity": 0.0, "sharpness": 0.4},
                {"time": 0.015, "intensity": 0.0, "sharpness": 0.4},
                {"time": 0.017, "intensity": 0.792, "sharpness": 0.3976},
                {"time": 0.115, "intensity": 0.4, "sharpness": 0.28},
                {"time": 0.265, "intensity": 0.0, "sharpness": 0.1},
                {"time": 0.267, "intensity": 0.0, "sharpness": 0.1}
              ],
              "transients": [
                {"time": 0.0, "intensity": 0.8, "sharpness": 0.4}
              ]
            }

            """)
    }

    @Test(.needsSharedFixtures) func compileCSVSamplesAtTheRate() throws {
        let result = try ExternalTool.cabin(["haptics", "compile", Self.boing, "--format", "csv", "--rate", "100"])
        #expect(result.status == 0)
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.first == "time,intensity,sharpness")
        #expect(lines.count == 1 + 27 + 1, "0.267 s at 100 Hz: samples 0…26, then one transient line")
        #expect(lines[1] == "0,0,0.4")
        #expect(lines[3] == "0.02,0.78,0.394")
        #expect(lines.last == "# transient,0,0.8,0.4")
        let bad = try ExternalTool.cabin(["haptics", "compile", Self.boing, "--rate", "0"])
        #expect(bad.status == 64)
        #expect(bad.stderr.hasPrefix("Error: --rate must be 1…96000 Hz\n"))
    }

    @Test(.needsSharedFixtures) func renderWritesMonoOrDualSenseAudio() throws {
        let dir = try TestEnvironment.temporaryDirectory("cabin-haptics")
        let mono = dir.appendingPathComponent("boing.wav").path
        let quad = dir.appendingPathComponent("boing4.wav").path
        let r1 = try ExternalTool.cabin(["haptics", "render", Self.boing, "-o", mono])
        #expect(r1.status == 0)
        #expect(r1.stdout == "\(mono): 0:00.297 at 48000 Hz, mono, WAV 24-bit, sharpness -> 60-300 Hz\n")
        let r4 = try ExternalTool.cabin(["haptics", "render", Self.boing, "-o", quad, "--channels", "4",
                                         "--freq-range", "80-250", "--sample-rate", "44100"])
        #expect(r4.status == 0)
        #expect(r4.stdout == "\(quad): 0:00.297 at 44100 Hz, 4 channels (haptics on 3-4), WAV 24-bit, sharpness -> 80-250 Hz\n")
        let info = try ExternalTool.cabin(["info", "--json", mono, quad])
        #expect(info.stdout.contains("\"channels\" : 1"))
        #expect(info.stdout.contains("\"frames\" : 14258"))
        #expect(info.stdout.contains("\"channels\" : 4"))
        #expect(info.stdout.contains("\"sampleRate\" : 44100"))
        let bad = try ExternalTool.cabin(["haptics", "render", Self.boing, "-o", mono, "--freq-range", "300-60"])
        #expect(bad.status == 64)
        #expect(bad.stderr.hasPrefix("Error: --freq-range must be LOW-HIGH in Hz with 0 < LOW < HIGH < sample rate / 2, like 60-300; not '300-60'\n"))
        let channels = try ExternalTool.cabin(["haptics", "render", Self.boing, "-o", mono, "--channels", "2"])
        #expect(channels.status == 64)
        #expect(channels.stderr.hasPrefix("Error: --channels must be 1 or 4, not 2\n"))
    }

    @Test(.needsSharedFixtures) func plotWritesALabelledSVG() throws {
        let dir = try TestEnvironment.temporaryDirectory("cabin-haptics")
        let out = dir.appendingPathComponent("shot.svg").path
        let result = try ExternalTool.cabin(["haptics", "plot", Self.shotgun, "-o", out])
        #expect(result.status == 0)
        #expect(result.stdout == "\(out): 1.225 s, 11 haptic events (10 transients)\n")
        let svg = try String(contentsOfFile: out, encoding: .utf8)
        #expect(svg.contains(">Lofelt__NiceVibrations__ShotgunFire2.haptic — 1.225 s, 11 haptic events (10 transients)</text>"))
        #expect(svg.components(separatedBy: "class=\"transient\"").count - 1 == 10)
        for label in [">intensity</text>", ">sharpness</text>", ">transient</text>", ">0.4 s</text>", ">1 s</text>", ">1.23 s</text>"] {
            #expect(svg.contains(label), "\(label)")
        }
    }

    @Test(.needsSharedFixtures) func showFitsEightyColumns() throws {
        let result = try ExternalTool.cabin(["haptics", "show", Self.heartbeats])
        #expect(result.status == 0)
        #expect(result.stdout == """
            \(Self.heartbeats): 2.275 s, 12 haptic events (12 transients)
            intensity █     ▇▆                      ▇█     ▇▆                      █      ▇▆
            sharpness ▃     ▁▁                      ▂▃     ▁▁                      ▃      ▁▁
            transient •     ••                      ••     ••                      •      ••
                      0 s                                                             2.28 s

            """)
        let all = try ExternalTool.cabin(["haptics", "show"] + Self.allFixtures())
        #expect(all.status == 0)
        for line in all.stdout.split(separator: "\n") where !line.hasPrefix("/") {
            #expect(line.count <= 80, "\(line)")
        }
    }

    @Test(.needsSharedFixtures) func convertWritesAHAPThatPassesStrictCheck() throws {
        let dir = try TestEnvironment.temporaryDirectory("cabin-haptics")
        let out = dir.appendingPathComponent("shot.ahap").path
        let result = try ExternalTool.cabin(["haptics", "convert", Self.shotgun, "-o", out])
        #expect(result.status == 0)
        #expect(result.stdout == "\(out): AHAP of \(Self.shotgun) (1.225 s, 11 haptic events (10 transients))\n")
        let check = try ExternalTool.cabin(["haptics", "check", "--strict", out])
        #expect(check.status == 0)
        // .haptic envelopes become Lofelt-style curves (see AHAPWriter): each of the 10
        // emphasis transients, louder than its texture, gets a piece of the plain event (19
        // pieces: 29 events), and the curves follow the pieces' crossfades, so they need more
        // points (16 a curve: 30 curves where plain ones needed 6).
        #expect(check.stdout.hasPrefix("\(out): ok (1.227 s, 29 haptic events (10 transients), 30 curves)"), "\(check.stdout)")
        let stdout = try ExternalTool.cabin(["haptics", "convert", Self.minimal])
        #expect(stdout.stdout.hasPrefix("{\n  \"Version\": 1.0,\n  \"Pattern\": [\n"))
    }

    @Test(.needsSharedFixtures) func convertAndroidPrintsTheWaveform() throws {
        let result = try ExternalTool.cabin(["haptics", "convert", Self.heartbeats, "--android"])
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix(#"{"timings":[13,20,187,20,15,20,725,"#))   // each beat from its own millisecond (0, 13, 220, 255 ms)
        #expect(result.stdout.hasSuffix(#"],"repeat":-1,"minApiLevel":26}"# + "\n"))
        let dir = try TestEnvironment.temporaryDirectory("cabin-haptics")
        let out = dir.appendingPathComponent("hb.json").path
        let file = try ExternalTool.cabin(["haptics", "convert", Self.heartbeats, "--android", "-o", out])
        #expect(file.stdout == "\(out): Android waveform of \(Self.heartbeats) (2.275 s, 12 haptic events (12 transients))\n")
        #expect(try String(contentsOfFile: out, encoding: .utf8) == result.stdout)
    }

    /// Issue 30: an export Android would refuse or play as nothing is an error, one line, and
    /// nothing written: a pattern with no haptic event (empty, or audio only) as a waveform
    /// (createWaveform needs a non-zero timing) or a composition (compose() throws when empty),
    /// and a weak continuous-only pattern as a composition (no transient, no rise of 0.1).
    @Test func androidExportsThatAndroidWouldRefuseAreErrors() throws {
        let dir = try TestEnvironment.temporaryDirectory("cabin-android")
        defer { try? FileManager.default.removeItem(at: dir) }
        let patterns = [
            ("empty.ahap", #"{ "Version": 1.0, "Pattern": [] }"#),
            ("audio.ahap", #"{ "Version": 1.0, "Pattern": [ { "Event": { "Time": 0, "EventType": "AudioContinuous", "EventDuration": 1 } } ] }"#),
            ("weak.ahap", #"{ "Version": 1.0, "Pattern": [ { "Event": { "Time": 0, "EventType": "HapticContinuous", "EventDuration": 1, "EventParameters": [ { "ParameterID": "HapticIntensity", "ParameterValue": 0.05 } ] } } ] }"#),
        ]
        for (name, text) in patterns { try Data(text.utf8).write(to: dir.appendingPathComponent(name)) }
        for (name, flag, refused) in [("empty.ahap", "--android", true), ("audio.ahap", "--android", true),
                                      ("empty.ahap", "--android-composition", true), ("audio.ahap", "--android-composition", true),
                                      ("weak.ahap", "--android-composition", true), ("weak.ahap", "--android", false)] {
            let input = dir.appendingPathComponent(name).path, out = dir.appendingPathComponent("\(name)\(flag).json").path
            let result = try ExternalTool.cabin(["haptics", "convert", input, flag, "-o", out])
            if refused {
                #expect(result.status == 1, "\(name) \(flag): \(result.stdout)")
                #expect(result.stderr.hasPrefix("cabin: error: \(input): "), "\(result.stderr)")
                #expect(result.stderr.hasSuffix("; nothing written\n") && result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
                #expect(!FileManager.default.fileExists(atPath: out))
            } else {
                // The weak texture as a waveform: held at round(0.05 × 255) = 13.
                #expect(result.status == 0, "\(result.stderr)")
                let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out))) as? [String: Any]
                #expect((json?["amplitudes"] as? [Int])?.max() == 13, "\(String(describing: json))")
            }
        }
    }

    @Test(.needsSharedFixtures) func playAsAudioOnTheNullDevice() throws {
        let result = try ExternalTool.cabin(["haptics", "play", Self.boing, "--audio", "-D", "null"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "\(Self.boing): played 0:00.297 as audio on null\n")
        let nowhere = try ExternalTool.cabin(["haptics", "play", Self.boing])
        #expect(nowhere.status == 64)
        let missing = try ExternalTool.cabin(["haptics", "play", Self.boing, "--audio", "-D", "no-such-pcm"])
        #expect(missing.status == 1)
        #expect(missing.stderr.hasPrefix("cabin: error: audio device \"no-such-pcm\": not found (snd_pcm_open: "))
    }

    @Test(.needsSharedFixtures) func playOnARumbleDeviceSaysWhyNot() throws {
        let missing = try ExternalTool.cabin(["haptics", "play", Self.boing, "--rumble", "/dev/input/event999"])
        #expect(missing.status == 1)
        #expect(missing.stderr == "cabin: error: rumble device /dev/input/event999: open: No such file or directory (errno 2); list rumble devices with 'cabin devices'\n")
        let notInput = try ExternalTool.cabin(["haptics", "play", Self.boing, "--rumble", "/dev/null"])
        #expect(notInput.status == 1)
        #expect(notInput.stderr == "cabin: error: rumble device /dev/null: EVIOCGBIT(0): Inappropriate ioctl for device (errno 25); this device has no rumble; list rumble devices with 'cabin devices'\n")
        let both = try ExternalTool.cabin(["haptics", "play", Self.boing, "--rumble", "/dev/null", "--audio"])
        #expect(both.status == 64)
        #expect(both.stderr.hasPrefix("Error: say where to play: --rumble /dev/input/eventN, --audio [-D NAME] (ALSA) or --dualsense NAME, one of them\n"))
        let mapping = try ExternalTool.cabin(["haptics", "play", Self.boing, "--rumble", "/dev/null", "--mapping", "loud"])
        #expect(mapping.status == 64)
    }

    @Test func devicesListsRumbleDevicesToo() throws {
        let result = try ExternalTool.cabin(["devices"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("\nRumble devices (evdev force feedback, for --rumble):\n"))
        let json = try ExternalTool.cabin(["devices", "--rumble", "--json"])
        #expect(json.status == 0)
        if !FileManager.default.fileExists(atPath: "/dev/input") {
            #expect(result.stdout.hasSuffix("    none: this machine has no input devices (/dev/input/event*)\n"))
            #expect(json.stdout.filter { !$0.isWhitespace } == "[]")
        }
    }

    @Test func helpListsTheSubcommandsWithExamples() throws {
        let result = try ExternalTool.cabin(["haptics", "--help"])
        #expect(result.status == 0)
        for sub in ["check", "compile", "render", "plot", "show", "convert", "play"] {
            #expect(result.stdout.contains("\n  \(sub) "), "\(sub)")
            let help = try ExternalTool.cabin(["haptics", sub, "--help"])
            #expect(help.stdout.contains("Examples:"), "\(sub)")
        }
    }
}

/// Issue 30: `--curve-times`, `--quiet`, repeated warnings counted, and an unsustained
/// event's length, as `haptics check` prints them.
@Suite struct HapticsReadingOptionTests {
    @Test func curveTimesQuietAndRepeatedWarnings() throws {
        let dir = try TestEnvironment.temporaryDirectory("cabin-haptics-reading")
        let ambiguous = dir.appendingPathComponent("apple.ahap").path
        try Data("""
        {"Version": 1.0, "Pattern": [
          {"Event": {"Time": 0, "EventType": "HapticContinuous", "EventDuration": 2}},
          {"ParameterCurve": {"ParameterID": "HapticIntensityControl", "Time": 0.5,
            "ParameterCurveControlPoints": [{"Time": 0.5, "ParameterValue": 1}, {"Time": 1.0, "ParameterValue": 0}]}}
        ]}
        """.utf8).write(to: URL(fileURLWithPath: ambiguous))
        let auto = try ExternalTool.cabin(["haptics", "check", ambiguous])
        #expect(auto.status == 0)
        #expect(auto.stdout.contains("warning: Pattern[1].ParameterCurve.ParameterCurveControlPoints[0].Time: control-point times read as absolute"))
        let relative = try ExternalTool.cabin(["haptics", "check", ambiguous, "--curve-times", "relative"])
        #expect(relative.stdout == "\(ambiguous): ok (2.002 s, 1 haptic event, 1 curve)\n")
        // Apple's reading keeps the event at full intensity until 1 s; the absolute one fades it from 0.5 s.
        let csv = try ExternalTool.cabin(["haptics", "compile", ambiguous, "--curve-times", "relative", "--format", "csv", "--rate", "4"])
        #expect(csv.stdout.contains("\n0.75,1,"), "\(csv.stdout)")
        let quiet = try ExternalTool.cabin(["haptics", "check", ambiguous, "--quiet"])
        #expect(quiet.stdout == "\(ambiguous): ok (2.002 s, 1 haptic event, 1 curve)\n")
        let bad = try ExternalTool.cabin(["haptics", "check", ambiguous, "--curve-times", "sideways"])
        #expect(bad.status == 64 && bad.stderr.contains("curve-times"), "\(bad.status) \(bad.stderr)")

        let repeated = dir.appendingPathComponent("studio.haptic").path
        let points = (0..<10).map { #"{"time": \#(Double($0) / 10), "amplitude": 0.5, "curve": 1}"# }.joined(separator: ", ")
        try Data(#"{"version": {"major": 1, "minor": 0, "patch": 0}, "signals": {"continuous": {"envelopes": {"amplitude": [\#(points)]}}}}"#.utf8)
            .write(to: URL(fileURLWithPath: repeated))
        let lines = try ExternalTool.cabin(["haptics", "check", repeated]).stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 5, "\(lines)")
        #expect(lines.prefix(3).allSatisfy { $0.hasPrefix("\(repeated):1:") && $0.contains(": warning: ") })
        #expect(lines.dropFirst(3).first?.hasPrefix("\(repeated): warning: and 7 more like it (haptic.unknown-key): ") == true, "\(lines)")
        #expect(try ExternalTool.cabin(["haptics", "show", repeated, "--quiet"]).stderr.isEmpty)

        let unsustained = dir.appendingPathComponent("decay.ahap").path
        try Data(#"{"Version": 1.0, "Pattern": [{"Event": {"Time": 2, "EventType": "HapticContinuous", "EventDuration": 1, "EventParameters": [{"ParameterID": "Sustained", "ParameterValue": 0}, {"ParameterID": "DecayTime", "ParameterValue": 0.6}]}}]}"#.utf8)
            .write(to: URL(fileURLWithPath: unsustained))
        #expect(try ExternalTool.cabin(["haptics", "check", unsustained]).stdout == "\(unsustained): ok (3 s, 1 haptic event)\n")
    }
}
