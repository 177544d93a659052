import CabinJSON
import Testing

@Suite struct NumberTextTests {
    @Test func plainDropsATrailingPointZeroOnly() {
        #expect(NumberText.plain(1) == "1")
        #expect(NumberText.plain(-12) == "-12")
        #expect(NumberText.plain(0.27) == "0.27")
        #expect(NumberText.plain(1e-7) == "1e-07")
        #expect(NumberText.plain(1e300) == "1e+300")
        #expect(NumberText.plain(.infinity) == "inf")
    }

    @Test func decimalsRoundAndTrimZeros() {
        #expect(NumberText.decimals(0.27, 3) == "0.27")
        #expect(NumberText.decimals(70, 3) == "70")
        #expect(NumberText.decimals(0.1 + 0.2, 3) == "0.3")
        #expect(NumberText.decimals(1.23456789, 5) == "1.23457")
        #expect(NumberText.decimals(-0.0005, 3) == "-0.001")
        #expect(NumberText.decimals(2.0004, 3) == "2")
        #expect(NumberText.decimals(0.01, 5) == "0.01")
    }
}
