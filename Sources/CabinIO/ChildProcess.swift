import Glibc

/// Commands the user gave Cabin to run (`cabin play --on-mark`, `--then`): `/bin/sh -c
/// COMMAND` with extra environment variables, started without waiting (the caller reaps
/// it), or waited for.
///
/// ```swift
/// let child = try ChildProcess(shell: "notify-send \"$CABIN_MARK\"", environment: ["CABIN_MARK": "rest"])
/// _ = child.exitStatus(waiting: true)
/// ```
///
/// Thread: control thread.
public final class ChildProcess {
    /// The child's process ID (reaped, and free for reuse, once its exit status is read).
    public let pid: pid_t
    private var status: Int32?
    /// The read end of its stdout's pipe (`Output.pipe`), else -1.
    private let outputDescriptor: Int32

    /// Starts `/bin/sh -c command` with this process's environment plus `environment`;
    /// its standard output goes to this process's stderr when `outputToStandardError` (so
    /// it cannot mix into JSON on stdout); no other descriptor is passed on, and it starts
    /// with no signal blocked and every signal at its default. The corresponding C function
    /// is `posix_spawn`.
    public convenience init(shell command: String, environment: [String: String] = [:], outputToStandardError: Bool = false) throws(SystemError) {
        try self.init(path: "/bin/sh", arguments: ["/bin/sh", "-c", command], environment: environment,
                      output: outputToStandardError ? .standardError : .inherited, discardingStandardError: false,
                      operation: "posix_spawn /bin/sh -c \(command)")
    }

    /// Where a child's standard output goes.
    public enum Output: Sendable {
        /// This process's stdout.
        case inherited
        /// This process's stderr.
        case standardError
        /// A pipe this process reads (`readOutput(into:)`).
        case pipe
    }

    /// Starts `executable` (a path, not looked up on `PATH`; no shell) with `arguments`
    /// and this process's environment plus `environment`; its stdout goes to `output`, its
    /// stderr to /dev/null when `discardingStandardError`. As `init(shell:)`: no other
    /// descriptor is passed on, no signal blocked, every signal at its default. The
    /// corresponding C functions are `pipe` and `posix_spawn`.
    public convenience init(executable: String, arguments: [String], environment: [String: String] = [:],
                            output: Output = .inherited, discardingStandardError: Bool = false) throws(SystemError) {
        try self.init(path: executable, arguments: [executable] + arguments, environment: environment,
                      output: output, discardingStandardError: discardingStandardError,
                      operation: "posix_spawn \(executable)")
    }

    private init(path: String, arguments: [String], environment: [String: String], output: Output,
                 discardingStandardError: Bool, operation: String) throws(SystemError) {
        var names = Set(environment.keys)
        var entries: [String] = environment.map { "\($0.key)=\($0.value)" }
        var p = environ
        while let entry = p.pointee {
            let text = String(cString: entry)
            let name = String(text.prefix { $0 != "=" })
            if !names.contains(name) { entries.append(text); names.insert(name) }
            p += 1
        }
        var pipeEnds: [Int32] = [-1, -1]
        if case .pipe = output { try checkedCall("pipe") { pipe(&pipeEnds) } }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        switch output {
        case .inherited: break
        case .standardError: posix_spawn_file_actions_adddup2(&actions, STDERR_FILENO, STDOUT_FILENO)
        case .pipe: posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], STDOUT_FILENO)
        }
        if discardingStandardError { posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0) }
        // Only stdin, stdout and stderr go to the command: a descriptor inherited by
        // mistake (another program's pipe) would otherwise outlive us in a long command.
        for fd in ChildProcess.openDescriptors() where fd > 2 { posix_spawn_file_actions_addclose(&actions, fd) }
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = entries.map { strdup($0) } + [nil]
        defer { for s in argv + envp { free(s) } }
        // A clean signal state: nothing blocked and every signal at its default, whatever
        // this process inherited or set (a test runner's blocked SIGTERM, cabin's own
        // handlers), so the command can be stopped like any other.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t(), all = sigset_t()
        sigemptyset(&none)
        sigfillset(&all)
        sigdelset(&all, SIGKILL)
        sigdelset(&all, SIGSTOP)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var child: pid_t = 0
        let result = posix_spawn(&child, path, &actions, &attributes, argv, envp)
        if case .pipe = output { close(pipeEnds[1]) }
        guard result == 0 else {
            if case .pipe = output { close(pipeEnds[0]) }
            throw SystemError(operation: operation, code: result)
        }
        pid = child
        outputDescriptor = pipeEnds[0]
    }

    deinit {
        if outputDescriptor >= 0 { close(outputDescriptor) }
    }

    /// Reads what it has written to its stdout (`Output.pipe`) into `buffer`, waiting until
    /// it writes something or ends: the bytes read, 0 at its end. The corresponding C
    /// function is `read`.
    public func readOutput(into buffer: inout [UInt8]) throws(SystemError) -> Int {
        precondition(outputDescriptor >= 0, "readOutput needs a child started with output: .pipe")
        let fd = outputDescriptor
        return try checkedCall("read") { Glibc.read(fd, &buffer, buffer.count) }
    }

    /// The open descriptors of this process (from /proc/self/fd). The corresponding C
    /// functions are `opendir`, `readdir` (`directoryEntries`) and `fcntl`.
    static func openDescriptors() -> [Int32] {
        let fds = (directoryEntries("/proc/self/fd") ?? []).compactMap { Int32($0) }
        return fds.filter { fcntl($0, F_GETFD) != -1 }   // the listing's own descriptor is closed now
    }

    /// Asks it to end as Ctrl-C would (SIGINT; a `cabin play` fades out and ends). The
    /// corresponding C function is `kill`.
    public func interrupt() {
        if status == nil { kill(pid, SIGINT) }
    }

    /// The first executable `name` on `PATH`, or nil. The corresponding C function is `access`.
    public static func executable(named name: String) -> String? {
        guard let path = getenv("PATH").map({ String(cString: $0) }) else { return nil }
        for folder in path.split(separator: ":") where !folder.isEmpty {
            let candidate = "\(folder)/\(name)"
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }

    /// `text` as one shell word: as it is when it holds only characters no shell treats
    /// specially, else in single quotes (a quote inside as '\'').
    public static func shellQuoted(_ text: String) -> String {
        let plain = !text.isEmpty && text.unicodeScalars.allSatisfy {
            $0.properties.isAlphabetic || ("0"..."9").contains($0) || "_./:=@%+,-".unicodeScalars.contains($0)
        }
        return plain ? text : "'" + text.split(separator: "'", omittingEmptySubsequences: false).joined(separator: #"'\''"#) + "'"
    }

    /// The exit status (128 + signal when killed), or nil while it runs (unless `waiting`).
    /// The corresponding C function is `waitpid`.
    public func exitStatus(waiting: Bool) -> Int32? {
        if let status { return status }
        var raw: Int32 = 0
        while true {
            let r = waitpid(pid, &raw, waiting ? 0 : WNOHANG)
            if r == -1 && errno == EINTR { continue }
            guard r == pid else { return nil }
            break
        }
        let signal = raw & 0x7f
        status = signal == 0 ? (raw >> 8) & 0xff : 128 + signal
        return status
    }
}
