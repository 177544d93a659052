import CabinIO
import CabinTestSupport
import Foundation
import Testing

/// Plain Ogg Opus files are decoded by libopus directly (`OggOpusFileReader`), to exactly
/// the samples libsndfile's own decoding gives, and a damaged one is still refused.
@Suite struct OggOpusDecodeTests {
    /// Every frame of `path`, read in chunks of `chunk` frames, as bit patterns; or the error.
    static func decode(_ path: String, direct: Bool, chunk: Int = 16384) -> Result<[UInt32], SoundFileError> {
        Result { () throws(SoundFileError) -> [UInt32] in
            let file = try OpenSoundFile(path, decodingOpusDirectly: direct)
            defer { file.close() }
            var out: [Float] = []
            var buffer = [Float](repeating: 0, count: chunk * file.channelCount)
            var total: Int64 = 0
            while true {
                let got = buffer.withUnsafeMutableBufferPointer { file.read(into: $0.baseAddress!, frames: chunk) }
                if got == 0 { break }
                out += buffer[0..<(got * file.channelCount)]
                total += Int64(got)
            }
            try file.checkEnd(framesDecoded: total)
            return out.map(\.bitPattern)
        }
    }

    /// The library's Opus sounds and files made by opusenc and ffmpeg (mono and stereo,
    /// long and shorter than one packet, 48 and 44.1 kHz sources).
    static func files() throws -> [String] {
        let dir = try TestEnvironment.temporaryDirectory()
        func path(_ name: String) -> String { dir.appendingPathComponent(name).path }
        try ExternalTool.check("sox", ["-n", "-r", "48000", "-c", "2", "-b", "16", path("noise.wav"), "synth", "7.3", "pinknoise", "vol", "0.3"])
        try ExternalTool.check("sox", ["-n", "-r", "44100", "-c", "1", "-b", "16", path("tone.wav"), "synth", "2.5", "sine", "440", "vol", "0.3"])
        try ExternalTool.check("sox", ["-n", "-r", "48000", "-c", "1", "-b", "16", path("blip.wav"), "synth", "0.004", "sine", "1000"])
        try ExternalTool.check("opusenc", ["--quiet", path("noise.wav"), path("noise.opus")])
        try ExternalTool.check("opusenc", ["--quiet", "--bitrate", "24", path("tone.wav"), path("tone.opus")])
        try ExternalTool.check("opusenc", ["--quiet", path("blip.wav"), path("blip.opus")])
        try ExternalTool.check("ffmpeg", ["-v", "error", "-i", path("noise.wav"), "-c:a", "libopus", "-b:a", "96k", path("ffmpeg.opus")])
        let library = TestEnvironment.packageRoot.appendingPathComponent("Sounds")
        let shipped = (FileManager.default.enumerator(atPath: library.path)?.allObjects as? [String] ?? [])
            .filter { $0.hasSuffix(".opus") }.sorted().map { library.appendingPathComponent($0).path }
        #expect(shipped.count >= 10, "the library's Opus sounds: \(shipped.count)")
        return [path("noise.opus"), path("tone.opus"), path("blip.opus"), path("ffmpeg.opus")] + shipped
    }

    @Test func theSamplesAreLibsndfilesBitForBit() throws {
        var direct = 0
        for (i, file) in try Self.files().enumerated() {
            let reference = try Self.decode(file, direct: false).get()
            #expect(!reference.isEmpty)
            #expect(try Self.decode(file, direct: true).get() == reference, "\(file)")
            // Read in chunks that cut packets anywhere (the files made here).
            if i < 4 { #expect(try Self.decode(file, direct: true, chunk: 997).get() == reference, "\(file) in chunks of 997") }
            let opened = try OpenSoundFile(file)
            if opened.decodesOpusDirectly { direct += 1 }
            opened.close()
        }
        // Every one, the 44.1 kHz source's too (libsndfile opens it at 48 kHz).
        #expect(direct == (try Self.files().count), "files decoded directly: \(direct)")
    }

    @Test func aDamagedFileIsStillRefused() throws {
        let dir = try TestEnvironment.temporaryDirectory()
        let source = dir.appendingPathComponent("noise.wav").path, encoded = dir.appendingPathComponent("noise.opus").path
        try ExternalTool.check("sox", ["-n", "-r", "48000", "-c", "2", "-b", "16", source, "synth", "6", "pinknoise", "vol", "0.3"])
        try ExternalTool.check("opusenc", ["--quiet", source, encoded])
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: encoded)))
        // Bytes flipped in the middle of the file: a page whose checksum no longer holds.
        for i in stride(from: bytes.count / 2, to: bytes.count / 2 + 400, by: 7) { bytes[i] ^= 0x5A }
        let damaged = dir.appendingPathComponent("damaged.opus").path
        try Data(bytes).write(to: URL(fileURLWithPath: damaged))
        #expect(try OpenSoundFile(damaged).decodesOpusDirectly)
        switch Self.decode(damaged, direct: true) {
        case .success(let samples): Issue.record("a damaged file decoded whole: \(samples.count) samples")
        case .failure(let error):
            #expect(error.kind == .truncated)
            #expect(error.description.hasPrefix("\(damaged): truncated or corrupt: decoding stopped after"), "\(error)")
        }
    }
}
