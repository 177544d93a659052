import CabinAudio
import CabinTestSupport
import CabinSession
import Testing

/// Renders session documents offline through the real runner, for assertions on samples.
enum SessionRender {
    static func compile(_ json: String, sounds: ResolvedSounds = ResolvedSounds(), sampleRate: Double = 48000,
                        maxBlockFrames: Int = 512) throws -> CompiledSession {
        let result = SessionReader.read(json, file: "test.json")
        let doc = try #require(result.document, "\(result.diagnostics)")
        return SessionCompiler.compile(doc, sounds: sounds, sampleRate: sampleRate, maxBlockFrames: maxBlockFrames)
    }

    /// The whole session as interleaved stereo, rendered in blocks of `blockSize`.
    static func render(_ compiled: CompiledSession, blockSize: Int = 512) -> [Float] {
        let runner = SessionRunner(compiled)
        var out = [Float](repeating: 0, count: 2 * Int(compiled.durationFrames))
        var position = 0
        out.withUnsafeMutableBufferPointer { all in
            while position < Int(compiled.durationFrames) {
                let n = min(blockSize, Int(compiled.durationFrames) - position)
                let slice = UnsafeMutableBufferPointer(rebasing: all[(2 * position)..<(2 * (position + n))])
                _ = runner.render(into: slice, frameCount: n)
                position += n
            }
        }
        return out
    }

    static func left(_ stereo: [Float], _ range: Range<Int>) -> [Float] { range.map { stereo[2 * $0] } }
    static func right(_ stereo: [Float], _ range: Range<Int>) -> [Float] { range.map { stereo[2 * $0 + 1] } }

    /// RMS in dBFS of one channel over a frame range.
    static func level(_ stereo: [Float], _ range: Range<Int>, channel: Int = 0) -> Double {
        20 * log10(SignalAnalysis.rms(channel == 0 ? left(stereo, range) : right(stereo, range)))
    }
}

import Foundation
