import Foundation
import Testing
import CabinAudio

/// The render path's own exp and sine match the C library's far below Float resolution.
@Suite struct MixerMathTests {
    @Test func expMatchesTheCLibrary() {
        for i in -2_000...2_000 {
            let x = Double(i) * 0.173
            let reference = Foundation.exp(x)
            #expect(abs(MixerMath.exp(x) - reference) <= 3e-13 * reference, "x = \(x)")
        }
        #expect(MixerMath.exp(-1_000) == 0)
        #expect(MixerMath.gain(decibels: 0) == 1)
        #expect(abs(MixerMath.gain(decibels: -6) - Decibels(-6).linearGain) < 1e-13)
    }

    /// The four-lane exp (gain maps, a block at a time) is the scalar exp on every lane, bit
    /// for bit: across the whole range, at the edges, and where k rounds (x·1/ln 2 near .5).
    @Test func fourLaneExpIsTheScalarExpOnEachLane() {
        var values: [Double] = (-3_000...3_000).map { Double($0) * 0.2371 }
        values += [-708.5, -708, -707.9, 709, 709.1, 0, -0.0, 1e-300, -1e-300, 0.34657359027997264, -0.34657359027997264]
        for n in 0..<2_000 {
            let halfStep: Double = Double(n) * 0.6931471805599453 / 2
            let nudge: Double = 1e-12 * Double(n % 7)
            values.append(halfStep + nudge - 300)
        }
        var random = SystemRandomNumberGenerator()
        values += (0..<20_000).map { _ in Double.random(in: -30...30, using: &random) }
        while values.count % 4 != 0 { values.append(1) }
        for i in Swift.stride(from: 0, to: values.count, by: 4) {
            let lanes = MixerMath.exp(SIMD4(values[i], values[i + 1], values[i + 2], values[i + 3]))
            for k in 0..<4 {
                #expect(lanes[k].bitPattern == MixerMath.exp(values[i + k]).bitPattern, "x = \(values[i + k])")
            }
        }
    }

    @Test func sineMatchesTheCLibraryOverOnePeriod() {
        for i in 0..<10_000 {
            let x = Double(i) * 2 * Double.pi / 10_000
            #expect(abs(MixerMath.sine(x) - sin(x)) < 1e-9, "x = \(x)")
        }
    }
}
