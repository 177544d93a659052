import Testing
import CabinAudio
import CabinBench

/// The benchmark's drive scene is valid and the run reports figures (timing is not tested).
@Suite struct MixerBenchmarkTests {
    @Test func driveSceneIsValidAndAudible() {
        let (config, commands) = MixerBenchmark.driveScene(seconds: 2)
        #expect(commands.count > 8)
        let (mixer, handle) = config.make()
        commands.forEach { #expect(handle.send($0)) }
        let out = Render.run(mixer, frameCount: 96_000, blockSize: 256)
        #expect(handle.counters.invalidCommands == 0)
        #expect(Render.rmsDecibels(Array(out[48_000...])) > -40)
        #expect(TestTruePeak.decibels(Render.left(out)) <= -1)
    }

    @Test func runReportsFigures() {
        let result = MixerBenchmark.run(seconds: 0.5, blockFrames: 128)
        #expect(result.renderedFrames == 24_000)
        #expect(result.realTimeFactor > 0 && result.corePercent > 0)
        #expect(result.description.contains("real time"))
    }
}
