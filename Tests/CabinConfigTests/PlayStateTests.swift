import CabinAudio
import CabinConfig
import CabinPlayback
import Testing

/// The state file's value: written and read back, and a bad one refused with its reason.
@Suite struct PlayStateTests {
    @Test func aStateReadsBackAsItWasWritten() throws {
        let session = PlayState.Session(preset: "pomodoro", options: ["focus": "50m"], loudness: "-18", seed: 7,
                                        title: "Pomodoro: 4 × 50 min", position: 754.25, duration: 12608, ended: false)
        let state = PlayState(session: session, volumes: ["master": -6, "radio": .silence])
        let back = try PlayState.decode(state.encoded()).get()
        #expect(back == state)
        #expect(back.levels == ["master": Decibels(-6), "radio": .silence])
        let file = PlayState(session: PlayState.Session(file: "/home/me/drive.json", title: "Drive", position: 0, duration: 60, ended: true))
        #expect(try PlayState.decode(file.encoded()).get() == file)
    }

    /// Issue 31.7: a volume outside −200 … +6.8 dB (or not a number) is dropped with its
    /// reason; the resume point and the other volumes are kept.
    @Test func oneRangeForVolumes() throws {
        let session = #""session": {"preset": "drive", "position": 12, "title": "x", "duration": 60, "ended": false}"#
        let state = try PlayState.decode(Array(#"{"cabinState": 1, \#(session), "volumes": {"master": -300, "radio": -6, "engine": 40, "ui": "loud", "ambient": null}}"#.utf8)).get()
        #expect(state.session?.position == 12)
        let kept: [String: Double?] = ["radio": -6, "ambient": nil]
        #expect(state.volumes == kept)
        #expect(state.dropped.map(\.description) == ["volumes.engine: 40.0 dB is not a volume (−200 … +6.8 dB)",
                                                     "volumes.master: -300.0 dB is not a volume (−200 … +6.8 dB)",
                                                     "volumes.ui: not a number of dB"])
        #expect(try PlayState.decode(Array(#"{"cabinState": 1, "volumes": {"master": -200, "radio": 6.8}}"#.utf8)).get().dropped.isEmpty)
        #expect(VolumeLevel.parse("-300dB") == nil && VolumeLevel.parse("-1e308dB") == nil && VolumeLevel.parse("-200dB") == Decibels(-200))
        #expect(VolumeLevel.parse("-inf dB") == .silence && VolumeLevel.parse("0") == .silence && VolumeLevel.parse("nan dB") == nil)
        #expect(VolumeLevel.fromPercent(0.01) == nil && VolumeLevel.fromPercent(0.05) != nil)
        #expect(VolumeLevel.clamped(Decibels(-1e308)) == Decibels(-200) && VolumeLevel.clamped(.silence) == .silence)
    }

    @Test func aBadStateFileIsOneReason() {
        func reason(_ json: String) -> String? {
            if case .failure(let e) = PlayState.decode(Array(json.utf8)) { return e.description }
            return nil
        }
        #expect(reason("{") != nil)
        #expect(reason(#"{"cabinState": 2, "volumes": {}}"#) == "version 2 is not one this Cabin reads (1)")
        let session = #""title": "x", "duration": 60, "ended": false"#
        #expect(reason(#"{"cabinState": 1, "volumes": {}, "session": {"preset": "drive", "position": -1, \#(session)}}"#)?
            .hasPrefix("session.position -1.0") == true)
        #expect(reason(#"{"cabinState": 1, "volumes": {}, "session": {"preset": "jog", "position": 1, \#(session)}}"#)
                == "session.preset: no preset 'jog'")
        #expect(reason(#"{"cabinState": 1, "volumes": {}, "session": {"file": "rel.json", "position": 1, \#(session)}}"#)
                == "session.file 'rel.json' is not an absolute path")
        #expect(reason(#"{"cabinState": 1, "volumes": {}, "session": {"position": 1, \#(session)}}"#)
                == "session: needs a file or a preset, one of them")
    }
}
