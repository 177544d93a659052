import CabinHaptics
import CabinJSON
import CabinTestSupport
import Foundation
import Testing

@Suite("Exports: Android composition primitives")
struct AndroidCompositionTests {
    static func transient(_ time: Double, intensity: Double, sharpness: Double) -> String {
        #"{"Event": {"Time": \#(time), "EventType": "HapticTransient", "EventParameters": [{"ParameterID": "HapticIntensity", "ParameterValue": \#(intensity)}, {"ParameterID": "HapticSharpness", "ParameterValue": \#(sharpness)}]}}"#
    }

    @Test(arguments: [
        (0.9, 0.9, AndroidComposition.Primitive.click), (0.3, 0.9, .tick),
        (0.9, 0.1, .thud), (0.3, 0.1, .lowTick),
    ])
    func transientsMapBySharpnessAndIntensity(intensity: Double, sharpness: Double,
                                              primitive: AndroidComposition.Primitive) throws {
        let compiled = HapticCompiler.compile(ahap(Self.transient(0.1, intensity: intensity, sharpness: sharpness)))
        let composition = AndroidComposition(compiled)
        let only = try #require(composition.elements.first)
        #expect(composition.elements.count == 1)
        #expect(only.primitive == primitive)
        #expect(only.scale == intensity)
        #expect(only.delayMilliseconds == 100)
        #expect(only.durationMilliseconds == 20)
        #expect(composition.requiredPrimitives == [primitive])
        #expect(composition.minimumAPILevel == (primitive == .thud || primitive == .lowTick ? 31 : 30))
    }

    @Test func rampsBecomeRisesAndFallsAndHeldLevelsAreReported() throws {
        // A 0.5 s event with a 1 s attack stops rising at the end (a 500 ms rise: SLOW_RISE),
        // then releases over 2 ms·1000^0.3 ≈ 15.9 ms (QUICK_FALL).
        let slow = HapticCompiler.compile(ahap(#"{"Event": {"Time": 0, "EventType": "HapticContinuous", "EventDuration": 0.5, "EventParameters": [{"ParameterID": "HapticIntensity", "ParameterValue": 1}, {"ParameterID": "AttackTime", "ParameterValue": 0.9}, {"ParameterID": "ReleaseTime", "ParameterValue": 0.3}]}}"#))
        let a = AndroidComposition(slow)
        #expect(a.elements.map(\.primitive) == [.slowRise, .quickFall])
        #expect(a.elements[0].durationMilliseconds == 500)
        #expect(a.elements[1].delayMilliseconds == 0)
        // A flat 1 s event: a 2 ms rise, 998 ms held, a 2 ms fall.
        let flat = AndroidComposition(continuous(intensity: 0.8, sharpness: 0.5))
        #expect(flat.elements.map(\.primitive) == [.quickRise, .quickFall])
        #expect(flat.elements.map(\.scale) == [0.8, 0.8])
        #expect(flat.heldMilliseconds == 998)
        #expect(flat.elements[1].delayMilliseconds == 998)
        #expect(flat.lengthMilliseconds == 1002)
    }

    @Test func overlappingPrimitivesQueueAndStillSumToTheLength() {
        // Transients at 0, 5 and 30 ms, each allotted 20 ms: the second starts when the first
        // ends and keeps its own end (25 ms), so it shortens to 5 ms; the third is on time.
        let compiled = HapticCompiler.compile(ahap([0.0, 0.005, 0.03].map {
            Self.transient($0, intensity: 1, sharpness: 1)
        }.joined(separator: ",")))
        let c = AndroidComposition(compiled)
        #expect(c.elements.map(\.startMilliseconds) == [0, 20, 30])
        #expect(c.elements.map(\.durationMilliseconds) == [20, 5, 20])
        #expect(c.elements.map(\.delayMilliseconds) == [0, 0, 5])
        #expect(c.lengthMilliseconds == 50)
        #expect(c.droppedPrimitives == 0)
        #expect(c.elements.reduce(0) { $0 + $1.delayMilliseconds + $1.durationMilliseconds } + c.tailMilliseconds
                == c.lengthMilliseconds)
    }

    /// Every library pattern: the export is valid JSON (strict), its required primitives are
    /// exactly those used, and delays + allotments + tail sum to the pattern's length (as it
    /// plays once from silence: a loop's single pass, `once`).
    @Test(arguments: try! FileManager.default.contentsOfDirectory(atPath: PatternLibraryTests.root.path)
        .filter { $0.hasSuffix(".ahap") }.sorted())
    func everyLibraryPatternExportsAValidComposition(file: String) throws {
        let bytes = Array(try Data(contentsOf: PatternLibraryTests.root.appendingPathComponent(file)))
        let compiled = HapticCompiler.compile(try #require(HapticReader.read(bytes, file: file).pattern))
        let text = AndroidComposition(compiled).jsonDocument.serialized()
        let (value, diagnostics) = JSONParser.parse(text, file: file, options: .strict)
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        let root = try #require(value?.objectValue)
        let primitives = try #require(root["primitives"]?.arrayValue).map { try #require($0.objectValue) }
        let sum = try primitives.reduce(0.0) {
            $0 + (try #require($1["delayMs"]?.numberValue)) + (try #require($1["durationMs"]?.numberValue))
        }
        let tail = try #require(root["tailMs"]?.numberValue)
        let length = try #require(root["lengthMs"]?.numberValue)
        #expect(length == (compiled.once.endTime * 1000).rounded())
        #expect(tail >= 0)
        #expect(sum + tail == length, "\(file): \(sum) + \(tail) ≠ \(length)")
        #expect(!primitives.isEmpty, "\(file): no primitives")
        let used = Set(primitives.compactMap { $0["primitive"]?.stringValue })
        let required = try #require(root["requiredPrimitives"]?.arrayValue).compactMap(\.stringValue)
        #expect(Set(required) == used)
        for p in primitives {
            let scale = try #require(p["scale"]?.numberValue)
            #expect((0...1).contains(scale))
            #expect(try #require(p["delayMs"]?.numberValue) >= 0)
            #expect(try #require(p["durationMs"]?.numberValue) > 0)
        }
    }

    /// The road textures say they loop (`"Loop": "true"`), so they compile as one period of
    /// their loop, which has no rise or fall of 0.1 left (road-smooth: none at all). Both
    /// Android exports play once from silence, so they take the single pass (`once`): the
    /// export of the loop is the export of the same pattern without the mark, 2.002 s long,
    /// and road-smooth's composition is not empty (an empty one throws in `compose()`).
    @Test(arguments: ["road-smooth", "road-rough"])
    func aLoopIsExportedAsItsSinglePass(name: String) throws {
        let bytes = Array(try Data(contentsOf: PatternLibraryTests.root.appendingPathComponent("\(name).ahap")))
        let marked = try #require(HapticReader.read(bytes, file: name, options: .strict).pattern)
        #expect(marked.metadata["Loop"] == "true")
        var unmarked = marked
        unmarked.metadata["Loop"] = nil
        let loop = HapticCompiler.compile(marked), single = HapticCompiler.compile(unmarked)
        #expect(loop.endTime == 2.0 && single.endTime > 2.0, "\(loop.endTime) \(single.endTime)")
        #expect(loop.once.breakpoints == single.breakpoints && loop.once.endTime == single.endTime)
        #expect(single.once.breakpoints == single.breakpoints, "a single pass is its own")
        let composition = AndroidComposition(loop)
        #expect(composition == AndroidComposition(single))
        #expect(!composition.elements.isEmpty, "\(name): no primitive")
        #expect(composition.lengthMilliseconds == Int((single.endTime * 1000).rounded()) && composition.lengthMilliseconds > 2000)
        let waveform = AndroidWaveform(loop)
        #expect(waveform == AndroidWaveform(single))
        #expect(waveform.totalMilliseconds == single.sampled().intensity.count, "\(waveform.totalMilliseconds)")
    }
}
