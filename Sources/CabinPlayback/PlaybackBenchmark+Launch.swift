import CabinAudio
import CabinIO
import Glibc

extension PlaybackBenchmark {
    /// Milliseconds from starting `executable` with `arguments` to its first bytes on stdout
    /// (`cabin play --json` prints its `start` event once the device plays); the child's
    /// stderr goes to /dev/null. It is then interrupted (SIGINT) and waited for.
    /// The corresponding C functions are `pipe`, `posix_spawn`, `read`, `kill` and `waitpid`.
    public static func millisecondsToFirstOutput(of executable: String, arguments: [String]) throws(SystemError) -> Double {
        var pipeEnds: [Int32] = [-1, -1]
        try checkedCall("pipe") { pipe(&pipeEnds) }
        defer { close(pipeEnds[0]) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], STDOUT_FILENO)
        posix_spawn_file_actions_addclose(&actions, pipeEnds[0])
        posix_spawn_file_actions_addclose(&actions, pipeEnds[1])
        posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0)
        // The child starts with default signal handling and nothing blocked.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t(), blocked = sigset_t()
        sigfillset(&defaults)
        sigemptyset(&blocked)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setsigmask(&attributes, &blocked)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for arg in argv { free(arg) } }

        let started = ContinuousClock.now
        var pid = pid_t()
        let err = posix_spawn(&pid, executable, &actions, &attributes, argv, environ)
        close(pipeEnds[1])
        guard err == 0 else { throw SystemError(operation: "posix_spawn \(executable)", code: err) }
        var firstBytes = [UInt8](repeating: 0, count: 4096)
        let read = Result { () throws(SystemError) in try checkedCall("read") { Glibc.read(pipeEnds[0], &firstBytes, firstBytes.count) } }
        let elapsed = ContinuousClock.now - started
        kill(pid, SIGINT)
        var status: Int32 = 0
        try checkedCall("waitpid") { waitpid(pid, &status, 0) }
        _ = try read.get()
        return elapsed.inSeconds * 1000
    }
}
