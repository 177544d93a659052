import CabinHaptics
import CabinJSON
import CabinTestSupport
import Testing

/// Reads a shared fixture with the reader its extension calls for.
func readFixture(_ name: String, _ options: HapticReadOptions = .lenient) throws -> HapticReadResult {
    let bytes = try SharedFixtures.bytes(name)
    let file = String(name.split(separator: "/").last!)
    return name.hasSuffix(".haptic")
        ? LofeltHapticReader.read(bytes, file: file, options: options)
        : AHAPReader.read(bytes, file: file, options: options)
}

@Suite("Every real fixture loads")
struct FixtureReadingTests {
    @Test(.needsSharedFixtures) func everyFixtureLoadsInLenientMode() throws {
        let names = try SharedFixtures.files(in: "ahap").map { "ahap/" + $0 }
            + SharedFixtures.files(in: "haptic").map { "haptic/" + $0 }
        // The nine the counts below were written for, and whatever else shared/ holds now.
        let known = ["ahap/apple__unityplugins__Boing.ahap", "ahap/apple__unityplugins__Spin.ahap",
                     "ahap/apple__unityplugins__Heartbeats.ahap", "ahap/apple__unityplugins__Texture.ahap",
                     "ahap/apple__unityplugins__Implode.ahap", "ahap/Lofelt__NiceVibrations__long_clip.ahap",
                     "haptic/Lofelt__NiceVibrations__ShotgunFire2.haptic",
                     "haptic/Lofelt__NiceVibrations__emphasis-and-continuous.haptic",
                     "haptic/Lofelt__NiceVibrations__valid_required_v1.haptic"]
        #expect(Set(known).isSubset(of: names), "\(names)")
        for name in names {
            let result = try readFixture(name)
            #expect(result.pattern != nil, "\(name): \(result.diagnostics)")
            #expect(!result.diagnostics.hasErrors, "\(name)")
        }
    }

    @Test(.needsSharedFixtures, arguments: [
        // name, transients, continuous, audio custom, curves (points), duration
        ("ahap/apple__unityplugins__Boing.ahap", 1, 1, 0, [3, 2], 0.265),
        ("ahap/apple__unityplugins__Spin.ahap", 0, 2, 0, [7, 2], 1.11),
        ("ahap/apple__unityplugins__Heartbeats.ahap", 12, 0, 0, [], 2.255),
        ("ahap/apple__unityplugins__Texture.ahap", 101, 0, 0, [], 2.0),
        ("ahap/apple__unityplugins__Implode.ahap", 0, 1, 1, [5, 3], 1.0),
        ("ahap/Lofelt__NiceVibrations__long_clip.ahap", 1, 3, 0, [7, 6], 70.0),
    ])
    func ahapFixturesHaveTheirCounts(name: String, transients: Int, continuous: Int, audioCustom: Int,
                                     curvePoints: [Int], duration: Double) throws {
        let pattern = try #require(try readFixture(name).pattern)
        #expect(pattern.events(ofType: .hapticTransient).count == transients)
        #expect(pattern.events(ofType: .hapticContinuous).count == continuous)
        #expect(pattern.events(ofType: .audioCustom).count == audioCustom)
        #expect(pattern.parameterCurves.map(\.controlPoints.count) == curvePoints)
        #expect(pattern.dynamicParameters.isEmpty)
        #expect(abs(pattern.duration - duration) < 1e-9)
        #expect(pattern.events.map(\.time) == pattern.events.map(\.time).sorted())
    }

    @Test(.needsSharedFixtures) func formatIsChosenByExtensionOrContent() throws {
        let haptic = try SharedFixtures.bytes("haptic/Lofelt__NiceVibrations__valid_required_v1.haptic")
        let ahap = try SharedFixtures.bytes("ahap/apple__unityplugins__Boing.ahap")
        #expect(HapticReader.format(of: haptic, file: "x.haptic") == .haptic)
        #expect(HapticReader.format(of: haptic, file: "pattern.json") == .haptic)
        #expect(HapticReader.format(of: ahap, file: "pattern.json") == .ahap)
        #expect(HapticReader.read(haptic, file: "pattern.json").pattern?.events.count == 1)
    }

    @Test(.needsSharedFixtures) func spinFailsInStrictModeBecauseOfItsTrailingCommas() throws {
        let strict = try readFixture("ahap/apple__unityplugins__Spin.ahap", .strict)
        #expect(strict.pattern == nil)
        #expect(strict.diagnostics.errors.map(\.description) == [
            "apple__unityplugins__Spin.ahap:74:22: error: Pattern[2].ParameterCurve.ParameterCurveControlPoints: trailing comma at the end of an array (accepted in lenient mode)",
            "apple__unityplugins__Spin.ahap:90:22: error: Pattern[3].ParameterCurve.ParameterCurveControlPoints: trailing comma at the end of an array (accepted in lenient mode)",
        ])
        let lenient = try readFixture("ahap/apple__unityplugins__Spin.ahap")
        #expect(lenient.diagnostics.warnings.map(\.rule) == ["json.trailing-comma", "json.trailing-comma"])
    }

    @Test(.needsSharedFixtures) func boingLoadsInStrictModeWithoutAnyDiagnostic() throws {
        let result = try readFixture("ahap/apple__unityplugins__Boing.ahap", .strict)
        #expect(result.pattern != nil)
        #expect(result.diagnostics.isEmpty)
    }

    @Test(.needsSharedFixtures) func implodeReportsCurvesBeforeEventsAndUnsortedEvents() throws {
        let result = try readFixture("ahap/apple__unityplugins__Implode.ahap")
        #expect(result.diagnostics.all.map(\.description) == [
            "apple__unityplugins__Implode.ahap:13:13: warning: Pattern[0].ParameterCurve: ParameterCurve comes before the events; accepted (curves apply pattern-wide)",
            "apple__unityplugins__Implode.ahap:54:13: warning: Pattern[3].Event: events are not in time order (this one at 0 s follows one at 0.2 s); sorted by time",
        ])
        let pattern = try #require(result.pattern)
        #expect(pattern.events.map(\.type) == [.audioCustom, .hapticContinuous])
        #expect(pattern.events[0].waveformPath == "CoreHaptics/Ricochet/Implode.wav")
        #expect(pattern.events[0].value(.audioVolume) == 0.8)
    }

    @Test(.needsSharedFixtures) func textureWarnsAboutItsLeadingWhitespace() throws {
        let result = try readFixture("ahap/apple__unityplugins__Texture.ahap")
        #expect(result.diagnostics.all.map(\.rule) == ["json.leading-whitespace"])
    }

    @Test(.needsSharedFixtures) func longClipKeepsItsThreeThirtySecondPieces() throws {
        let pattern = try #require(try readFixture("ahap/Lofelt__NiceVibrations__long_clip.ahap").pattern)
        #expect(pattern.events(ofType: .hapticContinuous).map(\.duration) == [30, 30, 10])
        #expect(pattern.parameterCurves[0].endTime == 70)
    }

    @Test(.needsSharedFixtures, arguments: [
        // name, breakpoints span, continuous pieces, emphasis transients
        ("haptic/Lofelt__NiceVibrations__valid_required_v1.haptic", 0.3, 1, 0),
        ("haptic/Lofelt__NiceVibrations__emphasis-and-continuous.haptic", 3.0, 1, 6),
        ("haptic/Lofelt__NiceVibrations__ShotgunFire2.haptic", 1.225, 1, 10),
    ])
    func hapticFixturesMapToEvents(name: String, span: Double, pieces: Int, transients: Int) throws {
        let result = try readFixture(name, .strict)
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
        let pattern = try #require(result.pattern)
        #expect(pattern.events(ofType: .hapticContinuous).count == pieces)
        #expect(pattern.events(ofType: .hapticTransient).count == transients)
        #expect(abs(pattern.duration - span) < 1e-9)
        #expect(pattern.version == 1)
    }

    /// Lofelt's own converter test pair: its `valid_v1.haptic` and the AHAP its converter
    /// makes of it. The emphasis becomes a transient of √amplitude and the frequency as it is
    /// (0.7746, 0.7); the continuous intensity is √amplitude, × 0.8 under the emphasis
    /// (0.3578 at 0.2 s); the sharpness √frequency. Lofelt writes 32-bit floats: 1e-6.
    @Test(.needsSharedFixtures) func emphasisMapsAsLofeltsConverterMapsIt() throws {
        let ours = try #require(try readFixture("haptic/Lofelt__NiceVibrations__valid_v1.haptic").pattern)
        let theirs = try #require(try readFixture("ahap/Lofelt__NiceVibrations__ahap_from_valid_v1.ahap").pattern)
        let (a, b) = (ours.events(ofType: .hapticTransient), theirs.events(ofType: .hapticTransient))
        #expect(a.count == 1 && b.count == 1)
        for (x, y) in zip(a, b) {
            #expect(abs(x.time - y.time) < 1e-6)
            #expect(abs(x.intensity - y.intensity) < 1e-6, "\(x.intensity) against \(y.intensity)")
            #expect(abs(x.sharpness - y.sharpness) < 1e-6, "\(x.sharpness) against \(y.sharpness)")
        }
        let envelope = try #require(ours.events(ofType: .hapticContinuous).first?.intensityEnvelope)
        let curve = try #require(theirs.parameterCurves.first { $0.id == .hapticIntensityControl })
        #expect(envelope.count == curve.controlPoints.count)
        for (x, y) in zip(envelope, curve.controlPoints) {
            #expect(abs(x.time - (curve.time + y.time)) < 1e-6)
            #expect(abs(x.value - y.value) < 1e-6, "at \(x.time) s: \(x.value) against \(y.value)")
        }
    }

    @Test(.needsSharedFixtures) func hapticMappingUsesSquareRoots() throws {
        let pattern = try #require(try readFixture("haptic/Lofelt__NiceVibrations__emphasis-and-continuous.haptic").pattern)
        let transient = try #require(pattern.events(ofType: .hapticTransient).first)
        #expect(transient.time == 0.5)
        #expect(transient.intensity == 1.0)
        #expect(transient.sharpness == 0)
        let last = try #require(pattern.events(ofType: .hapticTransient).last)
        #expect(abs(last.sharpness - 1.0) < 1e-12)
        let continuous = try #require(pattern.events(ofType: .hapticContinuous).first)
        let envelope = try #require(continuous.intensityEnvelope)
        #expect(envelope.count == 7)
        #expect(abs(envelope[1].value - 0.8.squareRoot() * 0.8) < 1e-12)   // under its emphasis: ducked
        #expect(continuous.sharpnessEnvelope?.first?.value == 1)
        #expect(continuous.sharpnessEnvelope?.last?.value == 0)
    }
}
