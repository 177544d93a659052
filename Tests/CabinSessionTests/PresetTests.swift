import CabinAudio
import CabinSession
import Foundation
import Testing

@Suite struct PresetTests {
    @Test(arguments: SessionPresets.all.map(\.name))
    func everyPresetIsAValidDocumentThatRenders(_ name: String) throws {
        let doc = try SessionPresets.make(name)
        let back = SessionReader.read(doc.json(), file: "\(name).json")
        #expect(back.diagnostics.isEmpty, "\(back.diagnostics)")
        let read = try #require(back.document)
        #expect(read == doc)
        // Renders its first and last 30 s (sounds absent here: silenced with warnings,
        // never a crash); the CLI tests render whole presets with the library.
        let compiled = SessionCompiler.compile(read, sounds: ResolvedSounds(), sampleRate: 8000, maxBlockFrames: 512)
        let tailStart = max(0, compiled.durationFrames - 8000 * 30)
        for part in [compiled, compiled.starting(at: tailStart)] {
            let runner = SessionRunner(part)
            var block = [Float](repeating: 0, count: 2 * 4096)
            var frames = 0
            while !runner.isFinished && frames < 8000 * 30 {
                frames += block.withUnsafeMutableBufferPointer { runner.render(into: $0, frameCount: 4096) }
            }
            #expect(frames > 0)
        }
    }

    @Test func driveMarksFallWhereTheOptionsPutThem() throws {
        let doc = try SessionPresets.make("drive", options: ["minutes": "60", "rest-every": "25m", "rest": "5m"])
        #expect(doc.duration == 3600)
        #expect(doc.marks.map(\.name) == ["ritual", "drive", "rest", "drive", "arrival"])
        let expected: [Double] = [0, 8, 1508, 1788, 3510] // ritual, drive at 8 s, 25 min later rest, 5 min − 20 s later drive, 90 s before the end
        #expect(doc.marks.map(\.time) == expected)
        let long = try SessionPresets.make("drive", options: ["minutes": "120", "rest-every": "50m", "rest": "10m"])
        #expect(long.marks.map(\.name) == ["ritual", "drive", "rest", "drive", "arrival"])
        #expect(long.marks[2].time == 8 + 3000)
        let noRest = try SessionPresets.make("drive", options: ["minutes": "90", "rest-every": "off"])
        #expect(noRest.marks.map(\.name) == ["ritual", "drive", "arrival"])
    }

    /// Miles come from speed × time: milestones every 10 miles in order, halfway between
    /// the right ones, all while moving.
    @Test func announcementsAgreeWithEachOther() throws {
        let doc = try SessionPresets.make("drive", options: ["minutes": "120", "destination": "Yosemite"])
        let said = doc.cues.compactMap { cue in cue.say.map { (cue.time, $0.text) } }
        let milestones = said.filter { $0.1.hasSuffix("miles driven — great progress!") }
        let numbers = milestones.compactMap { Int($0.1.split(separator: " ")[0]) }
        #expect(numbers.count >= 8, "\(said)")
        #expect(zip(numbers, numbers.dropFirst()).allSatisfy { $1 > $0 && ($1 - $0) % 10 == 0 })
        #expect(zip(milestones, milestones.dropFirst()).allSatisfy { $0.0 < $1.0 })
        let halfway = try #require(said.first { $0.1 == "Halfway to Yosemite" })
        let last = try #require(numbers.last)
        let before = milestones.filter { $0.0 < halfway.0 }.compactMap { Int($0.1.split(separator: " ")[0]) }.last ?? 0
        let after = milestones.filter { $0.0 > halfway.0 }.compactMap { Int($0.1.split(separator: " ")[0]) }.first ?? last + 10
        #expect(Double(before) <= Double(last + 10) / 2 + 10 && Double(after) >= Double(before))
        #expect(said.contains { $0.1.hasPrefix("Approaching Yosemite — ") })
        #expect(said.filter { $0.1 == "Rest stop in 5 miles" }.count == doc.marks.filter { $0.name == "rest" }.count)
    }

    /// Each haptic cue starts on the same frame as its sound.
    @Test func hapticsStartWithTheirSounds() throws {
        for name in ["drive", "pomodoro", "ui", "quest"] {
            let doc = try SessionPresets.make(name)
            let compiled = SessionCompiler.compile(doc, sounds: ResolvedSounds(), sampleRate: 48000)
            let withSound = doc.cues.filter { $0.haptic != nil && $0.play != nil }
            #expect(!withSound.isEmpty)
            for cue in withSound {
                #expect(compiled.haptics.contains { $0.frame == FrameTime((cue.time * 48000).rounded()) && $0.pattern == cue.haptic })
            }
        }
    }

    /// The presets cue the library's patterns for their moments: each haptic with the sound
    /// it is timed to, or alone where no sound plays.
    @Test func presetsCueThePatternsForTheirMoments() throws {
        func pairs(_ doc: SessionDocument) -> [(sound: String?, haptic: String)] {
            doc.cues.compactMap { cue in
                cue.haptic.map { haptic in (cue.play.map { "\($0.sound)" }, haptic) }
            }
        }
        func hapticsWith(_ doc: SessionDocument, _ sound: String) -> Set<String> {
            Set(pairs(doc).filter { $0.sound == sound }.map(\.haptic))
        }
        func alone(_ doc: SessionDocument) -> [String] { pairs(doc).filter { $0.sound == nil }.map(\.haptic) }

        let drive = try SessionPresets.make("drive", options: ["minutes": "60", "rest-every": "25m", "vehicle": "v8"])
        #expect(hapticsWith(drive, "ui/turn-signal") == ["turn-signal"])
        #expect(pairs(drive).filter { $0.sound == "ui/turn-signal" }.count == 3, "two clicks pulling in, one on arrival")
        #expect(hapticsWith(drive, "ui/ignition") == ["engine-start"])
        #expect(hapticsWith(drive, "ui/chime-break") == ["break-start"])
        #expect(hapticsWith(drive, "ui/session-end") == ["arrival"])
        #expect(alone(drive) == ["rest-stop", "engine-off", "engine-off"])
        let electric = try SessionPresets.make("drive", options: ["minutes": "60", "rest-every": "25m", "vehicle": "electric"])
        #expect(hapticsWith(electric, "ui/power-on") == ["engine-start-electric"])
        #expect(hapticsWith(electric, "ui/ignition") == [], "an electric car cranks no V8")
        // Each combustion engine starts with its own ignition, and its engine (the live one by
        // default, the idle and cruise loops with --engine loops) starts as it catches.
        for vehicle in ["v6", "four", "diesel", "vintage"] {
            let doc = try SessionPresets.make("drive", options: ["vehicle": vehicle])
            #expect(hapticsWith(doc, "ui/ignition-\(vehicle)") == ["engine-start-\(vehicle)"], "\(vehicle): its own start pattern")
            let ignition = try #require(doc.cues.first { $0.play?.sound == .library("ui/ignition-\(vehicle)") })
            let start = try #require(doc.cues.first { $0.start.contains("engine") })
            #expect(abs(start.time - ignition.time - 0.76) < 0.001, "\(vehicle): the engine starts at the catch")
            let loops = try SessionPresets.make("drive", options: ["vehicle": vehicle, "engine": "loops"])
            let idle = try #require(loops.cues.first { $0.start.contains("idle") })
            #expect(abs(idle.time - start.time) < 0.001, "\(vehicle): the idle loop starts at the catch")
        }
        let diesel = try SessionPresets.make("drive", options: ["vehicle": "diesel"])
        #expect(diesel.cues.contains { $0.play?.sound == .library("ui/glow-plug") })
        #expect(alone(electric) == ["rest-stop"], "no combustion engine to wind down")

        let pomodoro = try SessionPresets.make("pomodoro", options: ["cycles": "2"])
        #expect(pairs(pomodoro).map(\.haptic) == ["focus-start", "break-start", "focus-start", "break-start", "session-end"])
        #expect(hapticsWith(pomodoro, "ui/chime-focus") == ["focus-start"])
        #expect(hapticsWith(pomodoro, "ui/chime-break") == ["break-start"])
        #expect(hapticsWith(pomodoro, "ui/session-end") == ["session-end"])

        let ui = try SessionPresets.make("ui")
        #expect(hapticsWith(ui, "ui/toggle") == ["toggle"])
        #expect(hapticsWith(ui, "ui/counter-step") == ["counter-step"])
        #expect(hapticsWith(ui, "ui/streak-success") == ["streak-success"])

        let breathing = try SessionPresets.make("breathing", options: ["cycles": "2"])
        #expect(alone(breathing) == ["breath-in", "breath-hold", "breath-out", "breath-in", "breath-hold", "breath-out"])
        let holds = breathing.cues.filter { $0.haptic == "breath-hold" }.map(\.time)
        #expect(holds == breathing.marks.filter { $0.name == "hold" }.map(\.time), "on the hold marks")
        #expect(hapticsWith(breathing, "ui/unlock") == ["unlock"])
        let quest = try SessionPresets.make("quest")
        #expect(hapticsWith(quest, "ui/chime-focus") == ["focus-start"] && hapticsWith(quest, "ui/unlock") == ["unlock"])
    }

    @Test func theVoiceDucksTheRadioByThePresetsDepth() throws {
        let doc = try SessionPresets.make("drive", options: ["radio": "lofi"])
        let rule = try #require(doc.ducking.first)
        #expect(rule.when == "voice" && rule.duck.contains("radio") && rule.by == -8)
        // Render the drive with a constant radio and one spoken prompt: the radio's level
        // under the voice is 8 dB lower.
        let firstSay = try #require(doc.cues.first { $0.say != nil })
        let dc = LoadedSound(buffer: AudioBuffer(samples: [Float](repeating: 0.1, count: 48000), channelCount: 1, sampleRate: 48000),
                             loopStart: 0, loopEnd: 48000)
        let spoken = LoadedSound(buffer: TestTone.sine(frequency: 2000, seconds: 3))
        var sounds = ResolvedSounds(sounds: ["radio/lofi": dc])
        sounds.sounds[firstSay.say!.soundKey] = spoken
        var part = doc
        // The drive's lo-fi is generated (gen:lofi); the constant stands in for it as a library bed.
        part.layers = doc.layers.filter { $0.name == "radio" }.map { var l = $0; l.sound = .library("radio/lofi"); return l }
        part.cues = doc.cues.filter { ($0.start.contains("radio") || $0.say?.soundKey == firstSay.say!.soundKey) }
        part.cues = part.cues.enumerated().map { var c = $0.element; c.index = $0.offset; c.fadeIn = 0; return c }
        part.duration = firstSay.time + 4
        part.loudness = nil
        let compiled = SessionCompiler.compile(part, sounds: sounds, sampleRate: 48000)
        let runner = SessionRunner(compiled)
        var out = [Float](repeating: 0, count: 2 * Int(compiled.durationFrames))
        _ = out.withUnsafeMutableBufferPointer { runner.render(into: $0, frameCount: Int(compiled.durationFrames)) }
        func mean(_ from: Double, _ to: Double) -> Double {
            let a = Int(from * 48000), z = Int(to * 48000)
            return (a..<z).reduce(0.0) { $0 + Double(out[2 * $1]) } / Double(z - a)
        }
        let before = mean(firstSay.time - 2, firstSay.time - 0.5)
        let under = mean(firstSay.time + 0.5, firstSay.time + 2.5)
        #expect(abs(20 * log10(under / before) - (-8)) < 0.2, "radio \(before) → \(under)")
    }

    /// Each problem is one line in the library's own terms (the option `minutes`, not the
    /// flag `--minutes`); `spelled` gives the CLI its flags, with nothing else changed.
    @Test(arguments: [
        ("drive", ["minutes": "0"], "minutes must be a whole number of minutes from 25 to 240, not '0'"),
        ("drive", ["rest-every": "3x"], "rest-every must be 25m, 50m or off, not '3x'"),
        ("drive", ["vehicle": "tank"], "vehicle must be v8, v6, four, electric, diesel or vintage, not 'tank'"),
        ("drive", ["speed": "9"], "speed is not an option of the drive preset (it takes minutes, vehicle, route, engine, destination, rest-every, rest, radio, ambient)"),
        ("drive", ["radio": "nope"], "radio"),
        ("drive", ["ambient": "nope"], "ambient must be 'route' or a library name like ambient/rain, not 'nope'"),
        ("ambient", ["sound": "nope:x"], "sound"),
        ("pomodoro", ["cycles": "x"], "cycles must be a number from 1 to 12, not 'x'"),
        ("pomodoro", ["warn": "10s"], "warn must be a time from 30s to 30m before a phase ends"),
        ("nope", [:], "no preset \"nope\": use drive, pomodoro, ambient, breathing, quest, ui"),
    ])
    func optionErrorsAreOneClearLineInThePresetsTerms(_ name: String, _ options: [String: String], _ message: String) {
        do {
            _ = try SessionPresets.make(name, options: options)
            Issue.record("\(name) \(options) made a document")
        } catch {
            #expect(error.description.hasPrefix(message), "\(error)")
            #expect(!error.description.contains("--") && !error.description.contains("'cabin "), "\(error)")
            #expect(!error.description.contains("\n"))
            // The CLI's spelling: each option named is a flag, the rest word for word.
            let flagged = error.spelled { "--" + $0 }
            let named = error.parts.filter { if case .option = $0 { true } else { false } }.count
            #expect(flagged.count == error.description.count + 2 * named, "\(flagged)")
            if let option = error.option { #expect(flagged.hasPrefix("--" + option), "\(flagged)") }
            #expect(error.option == options.keys.first, "\(error)")
        }
    }

    @Test func theCommandLineSpellingNamesEachOptionAsAFlag() {
        do {
            _ = try SessionPresets.make("breathing", options: ["speed": "9"])
            Issue.record("made a document")
        } catch {
            #expect(error.option == "speed")
            let listed = SessionPresets.named("breathing")!.options.map { "--" + $0.name }.joined(separator: ", ")
            #expect(error.spelled { "--" + $0 } == "--speed is not an option of the breathing preset (it takes \(listed))")
        }
    }
}

enum TestTone {
    static func sine(frequency: Double, seconds: Double) -> AudioBuffer {
        let n = Int(seconds * 48000)
        return AudioBuffer(samples: (0..<n).map { Float(0.3 * sin(2 * .pi * frequency * Double($0) / 48000)) },
                           channelCount: 1, sampleRate: 48000)
    }
}
