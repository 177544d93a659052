import CabinAudio
import CabinIO
import CabinTestSupport
import Foundation
import Testing

/// Ogg Opus written through libsndfile: frame-exact length, close to the original, 48 kHz only.
@Suite struct OpusWriteTests {
    @Test func opusRoundTripKeepsLengthAndTone() throws {
        let dir = try TestEnvironment.temporaryDirectory()
        let path = dir.appendingPathComponent("tone.opus").path
        let tone = TestSignals.sine(frequency: 440, amplitude: 0.5, seconds: 1, channelCount: 2)
        try SoundFile.write(tone, to: path, format: .opus(bitrate: 96000))
        let (info, back) = try SoundFile.load(path)
        #expect(info.formatLabel == "OGG/OPUS")
        #expect(back.frameCount == tone.frameCount)
        let middle = Array(back.channel(0)[4800..<43200])
        #expect(SignalAnalysis.sinad(middle, frequency: 440, sampleRate: 48000) > 30)
    }

    @Test func opusIsFortyEightKilohertzOnly() throws {
        let dir = try TestEnvironment.temporaryDirectory()
        let tone = TestSignals.sine(frequency: 440, amplitude: 0.5, seconds: 0.1, sampleRate: 44100)
        #expect(throws: SoundFileError.self) {
            try SoundFile.write(tone, to: dir.appendingPathComponent("x.opus").path, format: .opus(bitrate: 64000))
        }
    }

    @Test func bitrateSetsTheSize() throws {
        let dir = try TestEnvironment.temporaryDirectory()
        var r: UInt64 = 1
        let noise = AudioBuffer(samples: (0..<96000).map { _ in
            r = r &* 6364136223846793005 &+ 1442695040888963407
            return Float(Int64(bitPattern: r) >> 40) / Float(1 << 23) * 0.3
        }, channelCount: 1, sampleRate: 48000)
        var sizes: [Int] = []
        for bitrate in [32000, 128000] {
            let path = dir.appendingPathComponent("n\(bitrate).opus").path
            try SoundFile.write(noise, to: path, format: .opus(bitrate: bitrate))
            sizes.append(try FileManager.default.attributesOfItem(atPath: path)[.size] as! Int)
        }
        // 2 s: about 8 kB at 32 kb/s, 32 kB at 128 kb/s.
        #expect(sizes[0] < 12000 && sizes[1] > 24000, "\(sizes)")
    }
}
