import CabinAudio
import CabinIO
import CabinTestSupport
import Foundation
import Testing

/// EBU Tech 3341 test signals: a stereo 1 kHz sine at −23 dBFS reads −23.0 LUFS ±0.1,
/// at −33 dBFS reads −33.0 ±0.1.
@Suite struct LoudnessMeterTests {
    @Test(arguments: [-23.0, -33.0])
    func tech3341StereoSine(level: Double) throws {
        let buffer = TestSignals.sine(frequency: 1000, amplitude: pow(10, level / 20), seconds: 20, channelCount: 2)
        let loudness = try LoudnessMeter.measure(buffer)
        let integrated = try #require(loudness.integrated)
        #expect(abs(integrated - level) <= 0.1, "integrated \(integrated) LUFS")
        let truePeak = try #require(loudness.truePeak)
        #expect(abs(truePeak - level) <= 0.1, "true peak \(truePeak) dBTP")
        #expect(try #require(loudness.range) < 0.1)
    }

    @Test func monoReadsAsDualMono() throws {
        let mono = TestSignals.sine(frequency: 1000, amplitude: pow(10, -23.0 / 20), seconds: 10, channelCount: 1)
        let stereo = TestSignals.sine(frequency: 1000, amplitude: pow(10, -23.0 / 20), seconds: 10, channelCount: 2)
        let m = try #require(try LoudnessMeter.measure(mono).integrated)
        let s = try #require(try LoudnessMeter.measure(stereo).integrated)
        #expect(abs(m - s) < 0.01)
    }

    @Test func truePeakSeesInterSamplePeaks() throws {
        // fs/4 sine with 45° phase: every sample is at ±0.707 of the true amplitude 1.0.
        var samples = [Float]()
        for i in 0..<48000 { samples.append(Float(sin(Double.pi / 2 * Double(i) + .pi / 4))) }
        let loudness = try LoudnessMeter.measure(AudioBuffer(samples: samples, channelCount: 1, sampleRate: 48000))
        let samplePeak = 20 * log10(SignalAnalysis.peak(samples))
        let truePeak = try #require(loudness.truePeak)
        #expect(samplePeak < -2.9)
        #expect(truePeak > -0.5, "true peak \(truePeak) dBTP")
    }

    @Test func silenceHasNoLoudness() throws {
        let loudness = try LoudnessMeter.measure(AudioBuffer(frameCount: 48000, channelCount: 2, sampleRate: 48000))
        #expect(loudness.integrated == nil)
        #expect(loudness.truePeak == nil)
    }
}
