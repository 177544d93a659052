import CabinSession
import Testing

/// Every number a document gives has a range the reader checks: absurd values are located
/// errors, never a crash in validation, compilation or rendering.
@Suite struct NumberBoundsTests {
    static func errors(_ json: String) -> [String] {
        SessionReader.read(json, file: "n.json").diagnostics.filter { $0.severity == .error }.map(\.description)
    }

    @Test func timesPastTwentyFourHoursAreErrors() {
        #expect(Self.errors(#"{"cabin":1,"duration":"1s","cues":[{"at":1e300,"mark":"x"}]}"#)
                == [#"n.json:1:42: error: cues[0].at: 1e300 is too long: a session lasts at most 24h"#])
        #expect(Self.errors(#"{"cabin":1,"duration":"2562047788015h"}"#)
                == [#"n.json:1:23: error: duration: "2562047788015h" is too long: a session lasts at most 24h"#])
        #expect(Self.errors(#"{"cabin":1,"duration":1e15}"#)
                == [#"n.json:1:23: error: duration: 1e15 is too long: a session lasts at most 24h"#])
        #expect(Self.errors(#"{"cabin":1,"duration":"24h"}"#).isEmpty)
        #expect(Self.errors(#"{"cabin":1,"duration":86401}"#).count == 1)
    }

    @Test func parametersAndMapsStayWithinTheirRanges() {
        let json = #"{"cabin":1,"parameters":{"speed":{"value":0,"min":-1e308,"max":1e308}},"layers":{"a":{"bus":"engine","sound":"synth:pink-noise","gainMap":{"parameter":"speed","map":[[-1e308,-1],[1e308,0]]}}},"cues":[{"at":0,"start":"a"},{"at":1,"set":"speed","to":1e308}]}"#
        // One line per wrong number, and no second, misleading error about the cue that
        // sets the parameter or the map left without points.
        #expect(Self.errors(json) == [
            "n.json:1:51: error: parameters.speed.min: min -1e308 is outside -1000000…1000000",
            "n.json:1:64: error: parameters.speed.max: max 1e308 is outside -1000000…1000000",
            "n.json:1:168: error: layers.a.gainMap.map[0][0]: parameter value -1e308 is outside -1000000…1000000",
            "n.json:1:180: error: layers.a.gainMap.map[1][0]: parameter value 1e308 is outside -1000000…1000000",
        ])
    }

    @Test func gainsAreDecibelsFromSilenceToPlus24() {
        let map = #"{"cabin":1,"parameters":{"s":{}},"layers":{"a":{"bus":"engine","sound":"synth:pink-noise","gainMap":{"parameter":"s","map":[[0,1000]]}}}}"#
        #expect(Self.errors(map) == [#"n.json:1:128: error: layers.a.gainMap.map[0][1]: 1000 dB is louder than +24 dB: gains are decibels, e.g. -6"#])
        let quiet = #"{"cabin":1,"layers":{"a":{"bus":"engine","sound":"synth:pink-noise","gain":-1e9}}}"#
        #expect(Self.errors(quiet) == [#"n.json:1:76: error: layers.a.gain: -1e9 dB is below -120 dB, which is already silence"#])
        #expect(Self.errors(#"{"cabin":1,"layers":{"a":{"bus":"engine","sound":"synth:pink-noise","gain":-120}}}"#).isEmpty)
    }

    /// A tone's frequencies stop at 20 kHz: `synth:sine?frequency=1e300` validated and then
    /// made render and play spin forever.
    @Test func synthFrequenciesStopAtTheTopOfHearing() {
        let json = #"{"cabin":1,"duration":"1s","layers":{"a":{"bus":"ambient","sound":"synth:sine?frequency=1e300"},"# +
            #""b":{"bus":"ambient","sound":"synth:binaural?carrier=1e308"},"c":{"bus":"ambient","sound":"synth:sine?frequency=20000"}}}"#
        #expect(Self.errors(json) == [
            #"n.json:1:67: error: layers.a.sound: synth:sine frequency 1e+300 Hz is above 20000 Hz"#,
            #"n.json:1:126: error: layers.b.sound: synth:binaural carrier 1e+308 Hz is above 20000 Hz"#,
        ])
    }

    /// Found by the session fuzzer: a version past Int's range trapped the reader.
    @Test func aHugeVersionIsAnUnknownVersion() {
        #expect(Self.errors(#"{"cabin": 100000000000000000000000, "duration": "1s"}"#)
                == [#"n.json:1:11: error: cabin: unknown session format version 100000000000000000000000: this Cabin reads version 1"#])
    }

    @Test func timesFormatWithoutTrappingAtAnySize() {
        #expect(SessionTime.format(1e300) == "1e+300s")
        #expect(SessionTime.format(.infinity) == "infs")
        #expect(SessionTime.format(3723.5) == "1h2m3.5s")
    }
}
