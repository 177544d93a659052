import CabinHaptics
import CabinJSON
import Testing

@Suite("Text exports: event-stream JSON, sampled CSV, terminal preview, plot ticks")
struct TextExportTests {
    @Test func jsonDocumentHoldsBreakpointsAndTransientsRounded() {
        let compiled = HapticCompiler.compile(ahap(#"""
            {"Event": {"Time": 0.1, "EventType": "HapticTransient", "EventParameters": [{"ParameterID": "HapticIntensity", "ParameterValue": 0.3333333333}]}}
            """#))
        #expect(compiled.jsonDocument.serialized(pretty: false)
            == #"{"duration":0.1,"endTime":0.12,"breakpoints":[],"transients":[{"time":0.1,"intensity":0.333333,"sharpness":0.5}]}"#)
    }

    @Test func csvHasOneRowPerSampleThenTransientComments() {
        let compiled = HapticCompiler.compile(ahap(#"""
            {"Event": {"Time": 0, "EventType": "HapticContinuous", "EventDuration": 0.02, "EventParameters": [{"ParameterID": "HapticIntensity", "ParameterValue": 0.5}, {"ParameterID": "HapticSharpness", "ParameterValue": 0.25}]}},
            {"Event": {"Time": 0.01, "EventType": "HapticTransient", "EventParameters": [{"ParameterID": "HapticIntensity", "ParameterValue": 1}]}}
            """#))
        let csv = compiled.sampled(rate: 100).csv
        // 2 ms attack, hold, 2 ms release after 20 ms; transient tail to 30 ms.
        #expect(csv == """
            time,intensity,sharpness
            0,0,0.25
            0.01,0.5,0.25
            0.02,0.5,0.25
            0.03,0,0.25
            # transient,0.01,1,0.5

            """)
    }

    @Test func decimalsAreShortAndLocaleFree() {
        #expect(HapticText.decimal(0.1 + 0.2, 4) == "0.3")
        #expect(HapticText.decimal(-0.00004, 4) == "0")
        #expect(HapticText.decimal(-1.23456, 3) == "-1.235")
        #expect(HapticText.decimal(70, 6) == "70")
    }

    @Test func terminalPreviewDrawsBothTracksOverTheSameColumns() {
        let compiled = continuous(intensity: 1, sharpness: 0.5, duration: 0.1)
        let preview = HapticPreview.terminal(compiled, width: 20)
        #expect(preview == """
            intensity ██████████
            sharpness ▄▄▄▄▄▄▄▄▄▄
                      0 s  0.1 s
            """)
        #expect(HapticPreview.terminal(HapticCompiler.compile(HapticPattern(events: [])), width: 80)
            == "(empty pattern: nothing to feel)")
    }

    @Test func plotTicksAreRoundSteps() {
        #expect(HapticPreview.tickStep(0.267, maxTicks: 10) == 0.05)
        #expect(HapticPreview.tickStep(70.002, maxTicks: 10) == 10)
        #expect(HapticPreview.tickStep(1.225, maxTicks: 10) == 0.2)
        #expect(HapticPreview.tickStep(2, maxTicks: 10) == 0.2)
    }

    @Test func plotDrawsSharpnessOnlyWhereTheTrackSounds() {
        let compiled = HapticCompiler.compile(ahap(#"""
            {"Event": {"Time": 0, "EventType": "HapticContinuous", "EventDuration": 0.1, "EventParameters": [{"ParameterID": "HapticIntensity", "ParameterValue": 1}]}},
            {"Event": {"Time": 0.5, "EventType": "HapticContinuous", "EventDuration": 0.1, "EventParameters": [{"ParameterID": "HapticIntensity", "ParameterValue": 1}]}}
            """#))
        let svg = HapticPreview.svg(compiled, title: "a <b> & c")
        #expect(svg.components(separatedBy: "class=\"sharpness\"").count - 1 == 2, "one dashed run per event")
        #expect(svg.contains(">a &lt;b&gt; &amp; c</text>"))
    }
}
