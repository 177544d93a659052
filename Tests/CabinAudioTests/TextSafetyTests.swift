import CabinAudio
import Testing

/// Issue 31.1: the string helpers that keep text from outside off the terminal's controls
/// (`terminalSafe`, `singleLine`) and well-formed in XML (`xmlEscaped`).
@Suite struct TextSafetyTests {
    @Test func terminalSafeShowsEveryControlCharacter() {
        #expect("a\u{1B}]0;x\u{07}\n\t\r\u{7F}\u{9B}b".terminalSafe == "a\\u{1b}]0;x\\u{7}\\u{a}\\u{9}\\u{d}\\u{7f}\\u{9b}b")
        #expect("plain · text".terminalSafe == "plain · text")
    }

    @Test func singleLineFoldsControlsAndCapsTheLength() {
        #expect("  Song\u{1B}[2J\n\n 2\r\u{9B} ".singleLine() == "Song [2J 2")
        let long = String(repeating: "é", count: 4000)
        #expect(long.singleLine().count == 256)
        #expect(long.singleLine().hasSuffix("é…"))
        #expect(String(repeating: "a", count: 256).singleLine() == String(repeating: "a", count: 256))
        #expect("\u{1B}\u{07}".singleLine().isEmpty)
    }

    @Test func xmlEscapedDropsWhatXMLForbids() {
        #expect("a&<>\"b".xmlEscaped == "a&amp;&lt;&gt;&quot;b")
        #expect("a\u{0}\u{1B}\u{07}\u{FFFE}\u{FFFF}\tb\nc\rd\u{9B}".xmlEscaped == "a\tb\nc\rd\u{9B}")
    }
}
