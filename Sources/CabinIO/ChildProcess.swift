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
    public let pid: pid_t
    private var status: Int32?

    /// Starts `/bin/sh -c command` with this process's environment plus `environment`;
    /// its standard output goes to this process's stderr when `outputToStandardError` (so
    /// it cannot mix into JSON on stdout); no other descriptor is passed on, and it starts
    /// with no signal blocked and every signal at its default. The corresponding C function
    /// is `posix_spawn`.
    public init(shell command: String, environment: [String: String] = [:], outputToStandardError: Bool = false) throws(SystemError) {
        var names = Set(environment.keys)
        var entries: [String] = environment.map { "\($0.key)=\($0.value)" }
        var p = environ
        while let entry = p.pointee {
            let text = String(cString: entry)
            let name = String(text.prefix { $0 != "=" })
            if !names.contains(name) { entries.append(text); names.insert(name) }
            p += 1
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if outputToStandardError { posix_spawn_file_actions_adddup2(&actions, STDERR_FILENO, STDOUT_FILENO) }
        // Only stdin, stdout and stderr go to the command: a descriptor inherited by
        // mistake (another program's pipe) would otherwise outlive us in a long command.
        for fd in ChildProcess.openDescriptors() where fd > 2 { posix_spawn_file_actions_addclose(&actions, fd) }
        let arguments = ["/bin/sh", "-c", command]
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
        let result = posix_spawn(&child, "/bin/sh", &actions, &attributes, argv, envp)
        guard result == 0 else { throw SystemError(operation: "posix_spawn /bin/sh -c \(command)", code: result) }
        pid = child
    }

    /// The open descriptors of this process (from /proc/self/fd). The corresponding C
    /// functions are `opendir`, `readdir` and `fcntl`.
    static func openDescriptors() -> [Int32] {
        guard let dir = opendir("/proc/self/fd") else { return [] }
        var fds: [Int32] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if let fd = Int32(name) { fds.append(fd) }
        }
        closedir(dir)
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
