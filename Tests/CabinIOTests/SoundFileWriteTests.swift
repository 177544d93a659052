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
