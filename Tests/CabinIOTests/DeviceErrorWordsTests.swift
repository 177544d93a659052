import CabinIO
import CabinOutput
import Testing

/// Issue 28.2: a device error's words do not assume the CLI. Every kind's line, for playback
/// and rumble devices, says what happened and what to try without naming a `cabin` command or
/// a flag; the kind is there for an app to act on, and `cabin` adds its own advice.
@Suite struct DeviceErrorWordsTests {
    static func assumesNoCLI(_ line: String) -> Bool {
        !line.contains("cabin") && !line.contains("--") && !line.contains(" -D ")
    }

    @Test(arguments: [AudioDeviceFailure.notFound, .busy, .permissionDenied, .unsupportedConfiguration, .disconnected, .failed])
    func everyPlaybackKindIsOneLineWithoutTheCLI(_ kind: AudioDeviceFailure) {
        let error = AudioDeviceError(kind, device: "hw:7", operation: "snd_pcm_open", code: 2, detail: "No such file or directory")
        #expect(Self.assumesNoCLI(error.description), "\(error)")
        #expect(error.description == "\(error.happened); \(error.advice)")
        #expect(error.happened.hasPrefix("audio device \"hw:7\": "))
        #expect(!error.isNoSoundServer)
    }

    @Test func aPlaybackDeviceNotFoundSaysToCheckTheName() {
        let error = AudioDeviceError(.notFound, device: "nosuchcard", operation: "snd_pcm_open", code: 2, detail: "No such file or directory")
        #expect(error.description == "audio device \"nosuchcard\": not found (snd_pcm_open: No such file or directory); check the name against the machine's playback devices")
    }

    @Test func noSoundServerIsSaidAsSuchWithoutTheCLI() {
        for (operation, code) in [("snd_pcm_open", Int32(111)), ("pw_context_connect", 0)] {
            let error = AudioDeviceError(.disconnected, device: "pulse", operation: operation, code: code, detail: "Connection refused")
            #expect(error.isNoSoundServer)
            #expect(error.description == "audio device \"pulse\": no sound server answers (\(operation): Connection refused); "
                + "start PulseAudio or PipeWire, choose another device, or play with no sound device (\"none\")")
            #expect(Self.assumesNoCLI(error.description), "\(error)")
        }
        // A device that went away mid-play is not a missing server.
        #expect(!AudioDeviceError(.disconnected, device: "hw:1", operation: "snd_pcm_writei", code: 19, detail: "No such device").isNoSoundServer)
    }

    @Test(arguments: [ForceFeedbackFailure.notFound, .permissionDenied, .disconnected, .unsupported, .busy, .failed])
    func everyRumbleKindIsOneLineWithoutTheCLI(_ kind: ForceFeedbackFailure) {
        let error = ForceFeedbackError(kind, device: "/dev/input/event9", operation: "open", code: 2, detail: "No such file or directory")
        #expect(Self.assumesNoCLI(error.description), "\(error)")
        #expect(error.description == "rumble device /dev/input/event9: open: No such file or directory (errno 2); \(error.advice)")
        #expect(error.happened == "rumble device /dev/input/event9: open: No such file or directory (errno 2)")
    }
}
