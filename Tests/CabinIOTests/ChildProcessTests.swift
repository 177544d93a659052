import CabinIO
import CabinTestSupport
import Foundation
import Glibc
import Testing

/// Commands Cabin starts (`--on-mark`, `--then`) begin with a clean signal state, whatever
/// Cabin inherited: a command started while SIGTERM is blocked can still be stopped by it.
@Suite struct ChildProcessTests {
    @Test func aCommandStartsWithNoSignalBlocked() throws {
        let dir = try TestEnvironment.temporaryDirectory("cabin-child")
        let out = dir.appendingPathComponent("status").path
        var blocked = sigset_t(), previous = sigset_t()
        sigemptyset(&blocked)
        sigaddset(&blocked, SIGTERM)
        sigaddset(&blocked, SIGHUP)
        pthread_sigmask(SIG_BLOCK, &blocked, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        let child = try ChildProcess(shell: "grep -E '^Sig(Blk|Ign):' /proc/self/status > '\(out)'")
        #expect(child.exitStatus(waiting: true) == 0)
        let lines = try String(contentsOfFile: out, encoding: .utf8).split(separator: "\n")
        #expect(lines.contains("SigBlk:\t0000000000000000"), "\(lines)")
        // No standard signal (1…31) ignored; glibc keeps its own real-time signals 32 and 33.
        let ignored = try #require(lines.first { $0.hasPrefix("SigIgn:") }.flatMap { UInt64($0.dropFirst(8), radix: 16) })
        #expect(ignored & 0x7FFF_FFFF == 0, "\(lines)")
    }

    /// A program started without a shell, its stdout read through a pipe and its stderr
    /// dropped (what `cabin bench --launch` times): the bytes it printed, then its end.
    @Test func aProgramsOutputIsReadThroughAPipe() throws {
        let child = try ChildProcess(executable: "/bin/sh", arguments: ["-c", "echo to-stdout; echo to-stderr >&2"],
                                     output: .pipe, discardingStandardError: true)
        var bytes = [UInt8](repeating: 0, count: 64)
        var text = ""
        while true {
            let n = try child.readOutput(into: &bytes)
            if n == 0 { break }
            text += String(decoding: bytes[..<n], as: UTF8.self)
        }
        #expect(text == "to-stdout\n")
        #expect(child.exitStatus(waiting: true) == 0)
    }

    /// A missing program is a `SystemError` naming it, not a child that exits 127.
    @Test func aMissingProgramThrows() {
        #expect(throws: SystemError.self) {
            _ = try ChildProcess(executable: "/nonexistent/cabin-no-such-program", arguments: [], output: .pipe)
        }
    }
}
