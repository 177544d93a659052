import Foundation
import Testing
import CabinAudio
import CabinIO
import CabinPlayback

/// The renderer's background writer gives the file a synchronous writer gives: the same
/// bytes, whatever the sizes of the pieces appended (smaller than its buffers, larger than
/// all of them together, and ending part-way through one).
@Suite struct BackgroundSoundWriterTests {
    @Test(arguments: [SoundFileFormat.wav(.pcm16), .wav(.float32)])
    func writesTheBytesASynchronousWriterWrites(format: SoundFileFormat) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cabin-bgwrite-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var random = SeededRandom(seed: 5)
        let frames = 100_003
        let samples = (0..<(2 * frames)).map { _ in Float(random.bipolar() * 1.1) }
        let direct = folder.appendingPathComponent("direct.wav").path
        let queued = folder.appendingPathComponent("queued.wav").path
        let plain = try SoundFileWriter(path: direct, format: format, channelCount: 2, sampleRate: 48_000)
        try samples.withUnsafeBufferPointer { try plain.write($0) }
        try plain.close()
        let writer = try SoundFileWriter(path: queued, format: format, channelCount: 2, sampleRate: 48_000)
        let background = BackgroundSoundWriter(writer, bufferSamples: 2 * 4_096, bufferCount: 3)
        var offset = 0
        let sizes = [1, 511, 4_096, 4_095, 30_000, 7]
        var k = 0
        while offset < frames {
            let n = min(sizes[k % sizes.count], frames - offset)
            try samples.withUnsafeBufferPointer { p in
                try background.append(UnsafeBufferPointer(rebasing: p[(2 * offset)..<(2 * (offset + n))]))
            }
            offset += n
            k += 1
        }
        try background.finish()
        try writer.close()
        let a = try Data(contentsOf: URL(fileURLWithPath: direct)), b = try Data(contentsOf: URL(fileURLWithPath: queued))
        #expect(a.count > 2 * frames * 2)
        #expect(a == b)
        if format == .wav(.float32) {
            let back = try SoundFile.read(queued)
            #expect(back.samples == samples)
        }
    }

    /// A write that fails on the queue is thrown to the producer (by `append` or `finish`),
    /// and nothing after it is written.
    @Test func aFailedWriteIsThrownToTheRender() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("cabin-bgfail-\(UUID().uuidString).wav").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try SoundFileWriter(path: path, format: .wav(.float32), channelCount: 2, sampleRate: 48_000)
        try writer.close()  // every write now fails
        let background = BackgroundSoundWriter(writer, bufferSamples: 2 * 1_024, bufferCount: 2)
        let samples = [Float](repeating: 0.25, count: 2 * 10_000)
        var thrown: SoundFileError?
        do throws(SoundFileError) {
            try samples.withUnsafeBufferPointer { (p) throws(SoundFileError) in try background.append(p) }
            try background.finish()
        } catch {
            thrown = error
        }
        #expect(thrown.map { "\($0)" }?.contains("already closed") == true, "\(String(describing: thrown))")
        #expect(writer.framesWritten == 0)
    }

    /// A render stopped part-way through a buffer (Ctrl-C): `abandon`, then the writer goes
    /// away holding that buffer, cleanly, with nothing of it written.
    @Test func aRenderStoppedMidBufferEndsCleanly() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("cabin-bgstop-\(UUID().uuidString).wav").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try SoundFileWriter(path: path, format: .wav(.float32), channelCount: 2, sampleRate: 48_000)
        do {
            let background = BackgroundSoundWriter(writer, bufferSamples: 2 * 1_024, bufferCount: 2)
            let samples = [Float](repeating: 0.25, count: 2 * 100)
            try samples.withUnsafeBufferPointer { (p) throws(SoundFileError) in try background.append(p) }
            background.abandon()
        }
        #expect(writer.framesWritten == 0)
    }
}
