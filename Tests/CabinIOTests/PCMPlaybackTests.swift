import CabinAudio
import CabinIO
import CabinOutput
import CabinTestSupport
import Foundation
import Testing

/// Real ALSA playback into Cabin's paced test sink (`PacedSink`):
/// it takes real time and what arrives is what was played.
@Suite(.serialized, .enabled(if: TestEnvironment.pacedSinkReady, Comment(rawValue: TestEnvironment.pacedSinkProblem)))
struct PCMPlaybackTests {
    @Test func twoSecondsOfSineTakeTwoSecondsAndArriveIntact() throws {
        let dir = try TestEnvironment.temporaryDirectory()
        let capture = dir.appendingPathComponent("played.wav").path
        try SinkLock.recording(into: capture) { try playTwoSeconds(capture: capture) }
    }

    func playTwoSeconds(capture: String) throws {

        let amplitude = 0.5 // −6 dBFS
        let tone = TestSignals.sine(frequency: 440, amplitude: amplitude, seconds: 2, channelCount: 2)
        let output = try PCMOutput(device: "default",
                                   configuration: OutputConfiguration(sampleRate: 48000, channelCount: 2,
                                                                   periodFrames: 256, periodCount: 4))
        #expect(output.negotiated.sampleRate == 48000)
        #expect(output.negotiated.periodFrames == 256)
        #expect(output.negotiated.bufferFrames == 1024)

        let start = Date()
        try tone.samples.withUnsafeBufferPointer { try output.write($0) }
        try output.drain()
        let elapsed = Date().timeIntervalSince(start)
        output.close()

        #expect(abs(elapsed - 2.0) < 0.06, "2 s of audio took \(elapsed) s of wall time")
        #expect(output.xrunCount == 0)

        let played = try SoundFile.read(capture)
        #expect(played.channelCount == 2)
        #expect(played.frameCount == 96000)
        for channel in 0..<2 {
            let samples = played.channel(channel)
            let frequency = try #require(SignalAnalysis.zeroCrossingFrequency(samples, sampleRate: 48000))
            #expect(abs(frequency - 440) < 0.05, "captured \(frequency) Hz")
            let level = 20 * log10(SignalAnalysis.rms(samples) * 2.0.squareRoot() / amplitude)
            #expect(abs(level) < 0.05, "captured level off by \(level) dB")
        }
    }

    @Test func lateWriterCausesRecoveredXrun() throws {
        let dir = try TestEnvironment.temporaryDirectory()
        try SinkLock.recording(into: dir.appendingPathComponent("xrun.wav").path) { try stallOnce() }
    }

    func stallOnce() throws {
        let output = try PCMOutput(device: "default",
                                   configuration: OutputConfiguration(periodFrames: 256, periodCount: 2))
        let block = TestSignals.sine(frequency: 440, amplitude: 0.1, seconds: 0.1, channelCount: 2)
        try block.samples.withUnsafeBufferPointer { try output.write($0) }
        usleep(150_000) // 150 ms stall with a 10.7 ms buffer
        try block.samples.withUnsafeBufferPointer { try output.write($0) }
        try output.drain()
        #expect(output.xrunCount >= 1)
    }
}

/// Device errors that need no sink.
@Suite struct PCMOutputErrorTests {
    @Test func unknownDeviceIsNotFoundWithAdvice() throws {
        let error = #expect(throws: AudioDeviceError.self) { try PCMOutput(device: "no_such_pcm") }
        #expect(error?.kind == .notFound)
        #expect(error?.description.hasPrefix("audio device \"no_such_pcm\": not found (snd_pcm_open:") == true)
        // Advice in words that name no program (the CLI adds its own: `cabin devices`).
        #expect(error?.description.hasSuffix("; check the name against the machine's playback devices") == true, "\(String(describing: error))")
        #expect(error?.description.contains("cabin") == false)
    }
}

@Suite struct ALSADeviceListTests {
    @Test func listsWhatAplayLists() throws {
        _ = TestEnvironment.pacedSinkReady   // the same ALSA configuration here and in aplay
        let names = ALSADevices.playback().map(\.name)
        let aplay = try ExternalTool.check("aplay", ["-L"]).stdout
        let aplayNames = aplay.split(separator: "\n").filter { !$0.hasPrefix(" ") }.map(String.init)
        #expect(names == aplayNames)
        if TestEnvironment.pacedSinkReady { #expect(names.contains("cabintest")) }
    }
}
