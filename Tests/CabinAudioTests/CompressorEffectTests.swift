import Foundation
import Testing
import CabinAudio
import CabinTestSupport

/// The bus compressor measured on the samples it renders: its static curve on steady sines,
/// its attack and release on steps, transparency below the knee, parameter moves, and its
/// place in a mixer (block sizes, the bus going idle).
@Suite struct CompressorEffectTests {
    static let rate = 48_000.0

    /// Runs `input` (interleaved stereo) through a compressor with `parameters`, in blocks of
    /// `block`; `moves` are (frame, parameter, value, over frames) applied before that frame.
    static func run(_ input: [Float], _ parameters: [Double], block: Int = 256,
                    moves: [(Int, Int, Double, Int64)] = []) -> [Float] {
        let effect = CompressorEffect(parameters: parameters)
        effect.prepare(sampleRate: rate, maximumBlockFrames: block)
        var samples = input
        let frames = input.count / 2
        var position = 0
        samples.withUnsafeMutableBufferPointer { all in
            while position < frames {
                for move in moves where move.0 == position {
                    effect.setParameter(move.1, to: move.2, overFrames: move.3)
                }
                let nextMove = moves.map(\.0).filter { $0 > position }.min() ?? frames
                let n = min(block, frames - position, nextMove - position)
                effect.process(all.baseAddress! + 2 * position, frameCount: n)
                position += n
            }
        }
        return samples
    }

    /// A 1 kHz sine of peak `peakDecibels` dBFS (its samples reach the peak: 48 per period),
    /// the same in both channels.
    static func sine(peakDecibels: Double, seconds: Double = 1) -> [Float] {
        let a = pow(10, peakDecibels / 20)
        return (0..<Int(seconds * rate)).flatMap { n -> [Float] in
            let x = Float(a * sin(2 * Double.pi * 1000 * Double(n) / rate))
            return [x, x]
        }
    }

    /// The reduction (dB) the soft-knee curve asks for at `level` dBFS, written out from its
    /// definition (Giannoulis et al. 2012, eq. 4): none below the knee, `(1 − 1/ratio)` of
    /// the excess above it, a quadratic across the knee.
    static func curve(_ level: Double, threshold: Double, ratio: Double, knee: Double) -> Double {
        let over = level - threshold
        if over <= -knee / 2 { return 0 }
        if over >= knee / 2 { return (1 - 1 / ratio) * over }
        return (1 - 1 / ratio) * pow(over + knee / 2, 2) / (2 * knee)
    }

    static func rmsDecibels(_ stereo: [Float], from frame: Int) -> Double {
        let left = stride(from: 2 * frame, to: stereo.count, by: 2).map { stereo[$0] }
        return 20 * log10(SignalAnalysis.rms(left))
    }

    /// Steady sines from 20 dB below the threshold to 20 dB above it, at ratio 4 with a 6 dB
    /// knee and 3 dB make-up: the output level over the last half second is the input's
    /// minus the curve's reduction plus the make-up, within 0.1 dB (the peak hold's release
    /// ripple between peaks is a few hundredths).
    @Test(arguments: [-40.0, -23.0, -21.0, -20.0, -18.0, -14.0, -10.0, 0.0])
    func staticCurveOnASteadySine(level: Double) {
        let (threshold, ratio, knee, makeup) = (-20.0, 4.0, 6.0, 3.0)
        let input = Self.sine(peakDecibels: level)
        let output = Self.run(input, [threshold, ratio, 0.005, 0.12, knee, makeup])
        let gain = Self.rmsDecibels(output, from: 24_000) - Self.rmsDecibels(input, from: 24_000)
        let expected = makeup - Self.curve(level, threshold: threshold, ratio: ratio, knee: knee)
        #expect(abs(gain - expected) < 0.1, "\(level) dBFS: gain \(gain) dB, expected \(expected) dB")
        #expect(abs(CompressorEffect.staticReduction(level: level, threshold: threshold, ratio: ratio, knee: knee)
                    - Self.curve(level, threshold: threshold, ratio: ratio, knee: knee)) < 1e-12)
    }

    /// Below the knee with no make-up the compressor leaves every sample as it was, bit for bit.
    @Test func belowTheKneeIsBitTransparent() {
        let input = Self.sine(peakDecibels: -24)  // the knee starts at −20 − 6/2 = −23 dBFS
        #expect(Self.run(input, [-20, 4, 0.005, 0.12, 6, 0]) == input)
    }

    /// A step from −40 to −10 dBFS and back (DC, so the gain is out/in on every sample), hard
    /// knee, threshold −20, ratio 4: 7.5 dB of reduction. It reaches 63 % of that `attack`
    /// after the step up and gives 63 % back `release` after the step down, within 2 frames
    /// (one-pole: 1 − 1/e after one time constant).
    @Test(arguments: [(0.005, 0.12), (0.02, 0.5), (0.001, 0.05)])
    func attackAndReleaseOnAStep(attack: Double, release: Double) {
        let (up, down, end) = (4_800, 4_800 + 24_000, 4_800 + 24_000 + Int(release * 6 * Self.rate))
        let low = Float(pow(10, -40.0 / 20)), high = Float(pow(10, -10.0 / 20))
        let input = (0..<end).flatMap { n -> [Float] in let x = n >= up && n < down ? high : low; return [x, -x] }
        let output = Self.run(input, [-20, 4, attack, release, 0, 0])
        let reduction = (0..<end).map { -20 * log10(Double(output[2 * $0]) / Double(input[2 * $0])) }
        let full = 7.5
        #expect(reduction[..<up].allSatisfy { $0 == 0 })
        #expect(abs(reduction[down - 1] - full) < 0.01, "settled at \(reduction[down - 1]) dB")
        let attackFrames = (up..<down).first { reduction[$0] >= full * (1 - exp(-1)) }! - up
        let releaseFrames = (down..<end).first { reduction[$0] <= full * exp(-1) }! - down
        #expect(abs(Double(attackFrames) - attack * Self.rate) <= 2, "attack: 63 % after \(attackFrames) frames")
        #expect(abs(Double(releaseFrames) - release * Self.rate) <= 2, "release: 63 % back after \(releaseFrames) frames")
        // The right channel (the same level, inverted) gets the same gain: the image stays put.
        #expect((0..<end).allSatisfy { output[2 * $0 + 1] == -output[2 * $0] })
    }

    /// Moving the threshold from 0 to −30 dBFS at frame 24,000 (over 480 frames) under a
    /// steady −12 dBFS sine: the same samples before the move, changed within it, then the
    /// curve's reduction at the new threshold; the ratio moved instead changes it as its curve says.
    @Test func parameterMovesChangeTheSamplesFromTheirFrame() {
        let input = Self.sine(peakDecibels: -12, seconds: 1.5)
        let still = Self.run(input, [0, 4, 0.005, 0.12, 6, 0])
        let moved = Self.run(input, [0, 4, 0.005, 0.12, 6, 0],
                             moves: [(24_000, CompressorEffect.thresholdParameter, -30, 480)])
        #expect(still == input)  // −12 dBFS is below the knee at 0 dB
        #expect(moved[..<(2 * 24_000)] == input[..<(2 * 24_000)])
        // The knee reaches the sine's peak part way through the move: the first sample turned
        // down is inside it (or at the sine's next peak).
        let first = (24_000..<72_000).first { moved[2 * $0] != input[2 * $0] }
        #expect(first.map { $0 < 24_000 + 480 + 48 } == true, "first changed frame \(String(describing: first))")
        let gain = Self.rmsDecibels(moved, from: 48_000) - Self.rmsDecibels(input, from: 48_000)
        #expect(abs(gain + Self.curve(-12, threshold: -30, ratio: 4, knee: 6)) < 0.1, "\(gain) dB")

        let ratio = Self.run(input, [-30, 2, 0.005, 0.12, 6, 0],
                             moves: [(24_000, CompressorEffect.ratioParameter, 8, 2_400)])
        let after = Self.rmsDecibels(ratio, from: 48_000) - Self.rmsDecibels(input, from: 48_000)
        #expect(abs(after + Self.curve(-12, threshold: -30, ratio: 8, knee: 6)) < 0.1, "\(after) dB")
    }

    /// On a bus: block sizes give the same bits, and after the voice stops the held
    /// reduction releases (a tail) and then the bus goes idle.
    @Test func onABusBlockSizesAgreeAndTheTailEnds() {
        func render(_ block: Int) -> [Float] {
            var config = Render.config()
            config.buses[0].effects = [CompressorEffect.Description(threshold: -30, ratio: 6, attack: 0.002, release: 0.05)]
            let layer = config.addLayer(LayerConfig(name: "tone", bus: BusID(index: 0), source: .synth(.sine(frequency: 700)),
                                                    isLooping: true))
            let commands = [MixerCommand(at: 0, .startLayer(layer, fadeInFrames: 0)),
                            MixerCommand(at: 12_000, .stopLayer(layer, fadeOutFrames: 480)),
                            MixerCommand(at: 30_000, .setEffectParameter(BusID(index: 0), effect: 0, parameter: 0, to: -10,
                                                                         overFrames: 4_800))]
            return Render.scene(config, commands: commands, frameCount: 48_000, blockSize: block)
        }
        let reference = render(512)
        for block in [1, 7, 64] { #expect(render(block) == reference, "block \(block)") }
        #expect(SignalAnalysis.peak(Array(reference[(2 * 13_000)...])) == 0)
    }

    /// Every parameter's range clamps what `setParameter` and the description take.
    @Test func valuesAreClampedToTheDeclaredRanges() {
        let declared = CompressorEffect.declaration.parameters
        let wild = CompressorEffect.Description(parameters: [-100, 0, 9, 0, 99, -5])
        #expect(wild.parameters == zip(declared, [-100.0, 0, 9, 0, 99, -5]).map { $0.clamped($1) })
        #expect(CompressorEffect.Description().parameters == CompressorEffect.declaration.defaults)
        #expect(CompressorEffect.declaration.mainParameter.name == "threshold")
    }

    /// A cue's value past a parameter's range plays as the range's end: every parameter moved
    /// to a wild value at once sounds as the compressor made with the clamped values.
    @Test func cuesAreClampedToTheDeclaredRanges() {
        let declared = CompressorEffect.declaration.parameters
        let input = Self.sine(peakDecibels: -3, seconds: 0.5)
        for wild in [[-100.0, 30, 9, 0, 99, -5], [5.0, 0.5, -1, 60, -3, 40]] {
            let moved = Self.run(input, CompressorEffect.declaration.defaults,
                                 moves: wild.enumerated().map { (0, $0.offset, $0.element, 0) })
            let clamped = Self.run(input, zip(declared, wild).map { $0.clamped($1) })
            #expect(moved == clamped, "\(wild)")
            #expect(moved != input, "\(wild) compresses nothing")
        }
    }
}
