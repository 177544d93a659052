import CabinTestSupport
import Foundation
import Testing

/// `cabin play` in a real terminal: `script` gives it a pty, a bash script beside it sends
/// signals and reads the terminal's mode with `stty`, and keys are typed into the pty.
/// Every way a session ends gives the terminal back as it was.
@Suite(.serialized) struct TerminalTests {
    /// Runs `driver` (bash) inside a pty with `keys` typed after the delays given; returns
    /// everything the pty printed. `$CABIN` in the driver is the binary.
    static func inTerminal(_ driver: String, keys: [(after: Double, text: String)] = [], holdOpen: Double = 4)
        throws -> ExternalTool.Result {
        let dir = try TestEnvironment.temporaryDirectory("cabin-terminal")
        let script = dir.appendingPathComponent("driver.sh")
        try Data(("CABIN='\(ExternalTool.cabinBinary)'\n" + driver).utf8).write(to: script)
        let typing = keys.map { "sleep \($0.after); printf '\($0.text)'" }.joined(separator: "; ")
        let feed = typing.isEmpty ? "sleep \(holdOpen)" : "\(typing); sleep \(holdOpen)"
        return try ExternalTool.run("/bin/sh", ["-c", "(\(feed)) | script -qec 'bash \(script.path)' /dev/null"])
    }

    /// The terminal's `icanon` and `echo` flags as `stty -a` shows them ("-icanon -echo" in raw mode).
    static let mode = #"$(stty -a < /dev/tty | grep -oE '(^| )-?(icanon|echo)( |;|$)' | tr -d ' ;' | tr '\n' ' ')"#

    /// The printed lines, without terminal control sequences and carriage returns.
    static func lines(_ text: String) -> [String] {
        let plain = text.replacingOccurrences(of: "\u{1B}\\[[0-9;?]*[A-Za-z]", with: "", options: .regularExpression)
        return plain.replacingOccurrences(of: "\r", with: "").components(separatedBy: "\n")
    }

    /// SIGTERM and SIGHUP end `play` as Ctrl-C does: the status says stopped, the exit is 0
    /// (a stop the user asked for), and the terminal is in line mode with echo again.
    @Test(arguments: ["TERM", "HUP", "INT"]) func signalsGiveTheTerminalBack(signal: String) throws {
        let result = try Self.inTerminal("""
            "$CABIN" play --preset quest -D none < /dev/tty > /dev/null 2>&1 & p=$!
            sleep 1.5
            echo "during: \(Self.mode)"
            kill -\(signal) $p; wait $p; echo "status=$?"
            echo "after: \(Self.mode)"
            """, holdOpen: 4)
        let lines = Self.lines(result.stdout)
        #expect(lines.contains("during: -icanon -echo "), "raw while playing: \(lines)")
        #expect(lines.contains("status=0"), "\(lines)")
        #expect(lines.contains("after: icanon echo "), "line mode after SIG\(signal): \(lines)")
    }

    /// Ctrl-Z (SIGTSTP) gives the terminal back while the player is stopped; `fg`
    /// (SIGCONT) puts it in raw mode again, and the keys still work: `q` quits.
    @Test func ctrlZGivesTheTerminalBackAndFgTakesItAgain() throws {
        // Job control as an interactive shell has it (set -m): the player in its own process
        // group in the foreground; Ctrl-Z stops it and fg brings it back.
        let result = try Self.inTerminal("""
            set -m
            "$CABIN" play --preset quest -D none --json < /dev/tty > "$(dirname "$0")/events" 2>&1 &
            p=$!
            (sleep 1.2; kill -TSTP $p) &
            fg %1 > /dev/null
            echo "stopped: \(Self.mode) $(ps -o stat= -p $p)"
            (sleep 0.6; echo "continued: \(Self.mode)") &
            fg %1 > /dev/null; echo "status=$?"
            cat "$(dirname "$0")/events"
            """, keys: [(after: 3, text: "q")], holdOpen: 3)
        let lines = Self.lines(result.stdout)
        #expect(lines.contains { $0.hasPrefix("stopped: icanon echo  T") }, "the terminal back while stopped: \(lines.filter { $0.hasPrefix("stopped") })")
        #expect(lines.contains("continued: -icanon -echo "), "raw again after fg: \(lines)")
        #expect(lines.contains("status=0"), "\(lines)")
        // --json in a terminal still reads keys: the q typed after fg ended the 90 s session
        // (without it, wait would not return before the pty closes).
        #expect(lines.contains { $0.hasPrefix("{\"event\":\"end\",\"reason\":\"stopped\",\"time\":") }, "\(lines)")
    }

    /// The status block fits a narrow terminal, and after the terminal narrows (SIGWINCH)
    /// what is drawn fits the new width.
    @Test func theStatusBlockFitsTheTerminalAndFollowsAResize() throws {
        let result = try Self.inTerminal("""
            stty cols 50 < /dev/tty
            "$CABIN" play --preset drive --minutes 25 -D none < /dev/tty 2>&1 & p=$!
            sleep 2.5
            stty cols 32 < /dev/tty; kill -WINCH $p; sleep 0.2; echo; echo RESIZED
            sleep 1.5
            kill -TERM $p; wait $p
            """, holdOpen: 6)
        let lines = Self.lines(result.stdout)
        let resized = try #require(lines.firstIndex(of: "RESIZED"), "\(lines)")
        // The notice and the "playing" line are printed once (the terminal wraps them); the
        // status block under them is redrawn in place and must fit.
        let start = try #require(lines.firstIndex { $0.hasPrefix("playing \"Drive") }, "\(lines)")
        let before = lines[(start + 1)..<resized].filter { !$0.isEmpty }, after = lines[(resized + 1)...].filter { !$0.isEmpty }
        #expect(before.contains { $0.contains("Drive") }, "the status block was drawn: \(before)")
        #expect(before.allSatisfy { $0.count <= 50 }, "\(before.filter { $0.count > 50 })")
        #expect(after.count >= 2, "redrawn after the resize: \(after)")
        #expect(after.allSatisfy { $0.count <= 32 }, "\(after.filter { $0.count > 32 })")
    }

    /// A terminal of 4 rows and 20 columns with the key help open (before: the block was
    /// drawn whole, 5 rows, 15 with the key help, and each redraw went that many rows up,
    /// past the top of the screen): no cursor-up reaches past the top (at most 3 rows) and
    /// no line is wider.
    @Test func theStatusBlockFitsATinyTerminal() throws {
        let result = try Self.inTerminal("""
            stty rows 4 cols 20 < /dev/tty
            "$CABIN" play --preset drive --minutes 25 -D none < /dev/tty 2>/dev/null & p=$!
            sleep 3
            kill -TERM $p; wait $p
            """, keys: [(after: 1.5, text: "?")], holdOpen: 4)
        let ups = result.stdout.matches(of: /\x{1B}\[(\d+)A/).compactMap { Int($0.output.1) }
        #expect(ups.count >= 5, "the block was redrawn: \(ups)")
        #expect(ups.allSatisfy { $0 <= 3 }, "cursor-ups \(ups)")
        let drawn = result.stdout.split(separator: "\u{1B}[2K").dropFirst().map { $0.prefix { !$0.isNewline } }
        #expect(!drawn.isEmpty && drawn.allSatisfy { $0.count <= 19 }, "\(drawn.filter { $0.count > 19 })")
    }
}
