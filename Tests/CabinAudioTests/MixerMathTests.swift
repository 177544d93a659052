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

    @Test func sineMatchesTheCLibraryOverOnePeriod() {
        for i in 0..<10_000 {
            let x = Double(i) * 2 * Double.pi / 10_000
            #expect(abs(MixerMath.sine(x) - sin(x)) < 1e-9, "x = \(x)")
        }
    }
}
