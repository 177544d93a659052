import CabinAudio
import CabinIO
import CabinTestSupport
import Foundation
import Testing

/// What Cabin writes, it reads back sample for sample.
@Suite struct SoundFileWriteTests {
    static let formats: [(SoundFileFormat, Double)] = [
        (.wav(.pcm16), 32768), (.wav(.pcm24), 8_388_608), (.wav(.float32), 8_388_608),
        (.flac(.pcm16), 32768), (.flac(.pcm24), 8_388_608),
    ]

    @Test(arguments: 0..<formats.count)
    func exactRoundTrip(_ index: Int) throws {
        let (format, scale) = Self.formats[index]
        let dir = try TestEnvironment.temporaryDirectory()
        let path = dir.appendingPathComponent(format.description.replacingOccurrences(of: " ", with: "_")
            + (format == .flac(.pcm16) || format == .flac(.pcm24) ? ".flac" : ".wav")).path
        let original = TestSignals.quantizedNoise(frames: 12345, channelCount: 2, scale: scale)
        try SoundFile.write(original, to: path, format: format)

        let (info, back) = try SoundFile.load(path)
        #expect(info.frameCount == 12345)
        #expect(back.channelCount == 2)
        #expect(back.samples == original.samples, "\(format) changed samples")
    }

    /// A WAV past 4 GiB (its RIFF sizes are 32-bit) is written as RF64 when its length is
    /// known ahead, and reads back; below the limit nothing changes.
    @Test func wavExpectedPastFourGiBIsRF64() throws {
        let format = SoundFileFormat.wav(.pcm24)
        let limitFrames = SoundFileFormat.maxWAVDataBytes / 6  // stereo 24-bit: 6 bytes a frame
        #expect(!format.needsRF64(frames: limitFrames, channels: 2))
        #expect(format.needsRF64(frames: limitFrames + 1, channels: 2))
        #expect(!SoundFileFormat.flac(.pcm24).needsRF64(frames: limitFrames * 4, channels: 2))
        #expect(format.description(frames: 480 * 60 * 48000, channels: 2) == "RF64 WAV 24-bit")  // 480 min would be 8.3 GB

        let dir = try TestEnvironment.temporaryDirectory()
        for (name, expected, header) in [("big.wav", limitFrames + 1, "RF64"), ("small.wav", Int64(12345), "RIFF")] {
            let path = dir.appendingPathComponent(name).path
            let output = try OutputFile(path)
            let writer = try SoundFileWriter(output: output, format: format, channelCount: 2, sampleRate: 48000,
                                             expectedFrames: expected)
            #expect(writer.isRF64 == (header == "RF64"))
            let original = TestSignals.quantizedNoise(frames: 12345, channelCount: 2, scale: 8_388_608)
            try original.samples.withUnsafeBufferPointer { try writer.write($0) }
            try writer.close()
            try output.commit()
            let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
            #expect(String(decoding: bytes.prefix(4), as: UTF8.self) == header, "\(name)")
            let (info, back) = try SoundFile.load(path)
            #expect(info.frameCount == 12345 && back.samples == original.samples, "\(name)")
        }
    }

    @Test func fullScaleClipsToTheLargestCode() throws {
        let dir = try TestEnvironment.temporaryDirectory()
        let path = dir.appendingPathComponent("clip.wav").path
        let loud = AudioBuffer(samples: [1.5, -1.5, 1.0, -1.0], channelCount: 1, sampleRate: 8000)
        try SoundFile.write(loud, to: path, format: .wav(.pcm16))
        let back = try SoundFile.read(path)
        #expect(back.samples == [32767 / 32768, -1, 32767 / 32768, -1])
    }

    /// Every sample becomes `sample × scale` rounded half away from zero and clipped (NaN
    /// silent): halves both ways, just inside and past full scale, infinities, tiny values,
    /// and random values between codes, in 16 and 24 bits.
    @Test(arguments: [(SoundFileFormat.wav(.pcm16), 32768.0), (.wav(.pcm24), 8_388_608)])
    func samplesRoundHalfAwayFromZeroAndClip(_ format: SoundFileFormat, _ scale: Double) throws {
        var random = SeededRandom(seed: 5)
        var samples: [Float] = [0, -0, .nan, .infinity, -.infinity, 1, -1, 1.5, -1.5, Float(1 - 0.5 / scale),
                                Float(-1 - 0.5 / scale), Float(-1 - 0.25 / scale), .leastNonzeroMagnitude, -.leastNonzeroMagnitude]
        for k in [0.5, 1.5, 2.5, 100.5, scale / 2 + 0.5] { samples += [Float(k / scale), Float(-k / scale)] }
        samples += (0..<20_000).map { _ in Float(random.bipolar() * 1.01) }
        let dir = try TestEnvironment.temporaryDirectory()
        let path = dir.appendingPathComponent("round.wav").path
        try SoundFile.write(AudioBuffer(samples: samples, channelCount: 1, sampleRate: 48000), to: path, format: format)
        let back = try SoundFile.read(path)
        let expected = samples.map { x -> Float in
            let code = (Double(x) * scale).rounded()
            return Float(Swift.min(scale - 1, Swift.max(-scale, code.isNaN ? 0 : code)) / scale)
        }
        let wrong = zip(back.samples, expected).enumerated().first { $0.element.0 != $0.element.1 }
        #expect(back.samples.count == samples.count)
        #expect(wrong == nil, "sample \(wrong?.offset ?? -1) (\(samples[wrong?.offset ?? 0])): \(wrong?.element.0 ?? 0) for \(wrong?.element.1 ?? 0)")
    }

    @Test func soxReadsWhatCabinWrote() throws {
        let dir = try TestEnvironment.temporaryDirectory()
        let path = dir.appendingPathComponent("tone.flac").path
        try SoundFile.write(TestSignals.sine(frequency: 500, amplitude: 0.5, seconds: 1, channelCount: 2),
                            to: path, format: .flac(.pcm24))
        let stat = try ExternalTool.check("sox", ["--i", path])
        #expect(stat.stdout.contains("Channels       : 2"))
        #expect(stat.stdout.contains("Sample Rate    : 48000"))
        #expect(stat.stdout.contains("48000 samples"))
        #expect(stat.stdout.contains("24-bit"))
    }

    @Test func unwritablePathIsOneLineError() throws {
        let error = #expect(throws: SoundFileError.self) {
            try SoundFile.write(AudioBuffer(frameCount: 10, channelCount: 1, sampleRate: 48000),
                                to: "/nonexistent-dir/x.wav", format: .wav(.pcm16))
        }
        #expect(error?.kind == .writeFailed)
        #expect(error?.description == "/nonexistent-dir/x.wav: cannot write: no such folder /nonexistent-dir")
        #expect(error?.description.contains("\n") == false)
    }
}
