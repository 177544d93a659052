import CabinAudio
import CabinIO
import CabinTestSupport
import Foundation
import Testing

@Suite struct ResamplerTests {
    @Test func sineKeepsFrequencyAndPurityFrom44_1To48k() throws {
        let input = TestSignals.sine(frequency: 1000, amplitude: 0.5, seconds: 2, sampleRate: 44100)
        let output = try Resampler.resample(input, to: 48000)
        #expect(output.sampleRate == 48000)
        #expect(abs(output.frameCount - 96000) <= 1)
        let body = Array(output.samples[4800..<91200])
        let frequency = try #require(SignalAnalysis.zeroCrossingFrequency(body, sampleRate: 48000))
        #expect(abs(frequency - 1000) < 0.01, "frequency \(frequency)")
        let snr = SignalAnalysis.sinad(body, frequency: 1000, sampleRate: 48000)
        #expect(snr >= 100, "SINAD \(snr) dB")
        let level = 20 * log10(SignalAnalysis.rms(body) * 2.0.squareRoot() / 0.5)
        #expect(abs(level) < 0.01, "gain \(level) dB")
    }

    @Test func stereoChannelsStayApart() throws {
        var input = AudioBuffer(frameCount: 22050, channelCount: 2, sampleRate: 22050)
        let left = TestSignals.sine(frequency: 300, amplitude: 0.5, seconds: 1, sampleRate: 22050)
        for f in 0..<22050 { input[f, 0] = left.samples[f] }
        let output = try Resampler.resample(input, to: 48000)
        let l = Array(output.channel(0)[4800..<43200]), r = Array(output.channel(1)[4800..<43200])
        #expect(SignalAnalysis.rms(l) > 0.3)
        #expect(SignalAnalysis.peak(r) < 1e-4)
    }

    @Test func sameRateIsUnchanged() throws {
        let input = TestSignals.sine(frequency: 100, amplitude: 0.5, seconds: 0.1)
        #expect(try Resampler.resample(input, to: 48000) == input)
    }
}
