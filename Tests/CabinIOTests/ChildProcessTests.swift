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
}
