import CabinAudio
import CabinIO
import CabinPlayback

extension PlaybackBenchmark {
    /// Milliseconds from starting `executable` with `arguments` to its first bytes on stdout
    /// (`cabin play --json` prints its `start` event once the device plays); the child's
    /// stderr goes to /dev/null. It is then interrupted (SIGINT) and waited for.
    /// The child is a `ChildProcess` (no shell; no descriptor but stdin, stdout and stderr passed on).
    package static func millisecondsToFirstOutput(of executable: String, arguments: [String]) throws(SystemError) -> Double {
        let started = ContinuousClock.now
        let child = try ChildProcess(executable: executable, arguments: arguments, output: .pipe, discardingStandardError: true)
        var firstBytes = [UInt8](repeating: 0, count: 4096)
        let read = Result { () throws(SystemError) in try child.readOutput(into: &firstBytes) }
        let elapsed = ContinuousClock.now - started
        child.interrupt()
        _ = child.exitStatus(waiting: true)
        _ = try read.get()
        return elapsed.inSeconds * 1000
    }
}
