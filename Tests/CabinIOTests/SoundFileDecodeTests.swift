import CabinAudio
import CabinIO
import CabinTestSupport
import Foundation
import Testing

/// Files made by real encoders (sox, opusenc) decode to the right length, pitch and level.
@Suite struct SoundFileDecodeTests {
    /// A 1 kHz sine at −20 dBFS (amplitude 0.1), 2 s, stereo, 48 kHz, as a 24-bit WAV.
    static func makeSource(in dir: URL) throws -> String {
        let path = dir.appendingPathComponent("sine.wav").path
        try ExternalTool.check("sox", ["-n", "-r", "48000", "-c", "2", "-b", "24", path,
                                       "synth", "2", "sine", "1000", "vol", "0.1"])
        return path
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var encode: @Sendable (String, String) throws -> Void
        var container: String
        var encoding: String
        var exactLength: Bool
        var levelTolerance: Double
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "WAV", encode: { _, _ in }, container: "WAVEX", encoding: "PCM_24", exactLength: true, levelTolerance: 0.01),
        Case(name: "FLAC", encode: { src, dst in try ExternalTool.check("sox", [src, "-b", "16", dst]) },
             container: "FLAC", encoding: "PCM_16", exactLength: true, levelTolerance: 0.01),
        Case(name: "Ogg Vorbis", encode: { src, dst in try ExternalTool.check("sox", [src, "-C", "6", dst]) },
             container: "OGG", encoding: "VORBIS", exactLength: true, levelTolerance: 0.2),
        Case(name: "Ogg Opus", encode: { src, dst in try ExternalTool.check("opusenc", ["--quiet", "--bitrate", "128", src, dst]) },
             container: "OGG", encoding: "OPUS", exactLength: true, levelTolerance: 0.2),
    ]

    @Test(arguments: cases)
    func decodesLengthPitchAndLevel(_ c: Case) throws {
        let dir = try TestEnvironment.temporaryDirectory()
        let source = try Self.makeSource(in: dir)
        let ext = ["WAV": "wav", "FLAC": "flac", "Ogg Vorbis": "ogg", "Ogg Opus": "opus"][c.name]!
        let path = c.name == "WAV" ? source : dir.appendingPathComponent("sine.\(ext)").path
        try c.encode(source, path)

        let (info, buffer) = try SoundFile.load(path)
        #expect(info.container == c.container)
        #expect(info.encoding == c.encoding)
        #expect(info.channelCount == 2)
        #expect(info.sampleRate == 48000)
        if c.exactLength {
            #expect(info.frameCount == 96000)
            #expect(buffer.frameCount == 96000)
        }
        #expect(abs(info.duration - 2.0) < 1e-9)

        // Measure away from the edges, where codecs fade in and out.
        for channel in 0..<2 {
            let body = Array(buffer.channel(channel)[4800..<91200])
            let frequency = try #require(SignalAnalysis.zeroCrossingFrequency(body, sampleRate: 48000))
            #expect(abs(frequency - 1000) < 0.5, "frequency \(frequency)")
            let levelDB = 20 * log10(SignalAnalysis.rms(body) * 2.0.squareRoot())
            #expect(abs(levelDB - (-20)) < c.levelTolerance, "peak level \(levelDB) dBFS")
        }
    }

    @Test func monoFileDecodesAsOneChannel() throws {
        let dir = try TestEnvironment.temporaryDirectory()
        let path = dir.appendingPathComponent("mono.flac").path
        try ExternalTool.check("sox", ["-n", "-r", "44100", "-c", "1", "-b", "16", path, "synth", "0.5", "sine", "440"])
        let buffer = try SoundFile.read(path)
        #expect(buffer.channelCount == 1)
        #expect(buffer.sampleRate == 44100)
        #expect(buffer.frameCount == 22050)
    }
}
