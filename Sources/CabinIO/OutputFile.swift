import Glibc

/// A file being written so that its destination is never left half-written: every command
/// that writes a file (renders, haptic previews, converted patterns) writes through one.
///
/// ```swift
/// let output = try OutputFile("drive.wav")      // checks the destination; no work yet
/// try output.write(bytes)                       // or SoundFileWriter(output:…)
/// try output.commit()                           // fsync + rename into place
/// ```
///
/// - A regular file (or a new name) is written to `.NAME.PID.cabin-tmp` beside it, synced
///   and renamed over it at `commit()`; on any failure or `discard()` the temporary is
///   removed and the destination is untouched. A symlink's target is written (the link
///   stays a link). Stale temporaries of dead processes beside it are removed.
/// - A device, a FIFO or `-` (standard output) is streamed to: the bytes are spooled in an
///   unnamed file under `$TMPDIR` (seekable, so WAV headers can be finished) and copied to
///   the destination at `commit()`. Nothing there is ever replaced.
///
/// Thread: control thread only (blocking file I/O).
public final class OutputFile {
    /// The destination as the user named it (`-`: standard output).
    public let path: String
    /// The name used in messages: `path`, or "standard output".
    public let name: String
    /// Where the bytes go until `commit()`: the temporary or the spool.
    public let descriptor: Int32
    /// True when the destination is streamed to (a device, a FIFO, standard output).
    public let isStream: Bool
    private let target: String
    private let temporary: String?
    private var finished = false
    private var committed = false

    /// Checks that `path` can be written and opens its temporary (or spool) — before any
    /// work, so a directory, a missing or read-only folder fails at once; `-` when standard
    /// output is a terminal is refused (audio bytes would garble it). The corresponding C
    /// functions are `lstat`, `readlink`, `open`, `fchmod` and `isatty`.
    public init(_ path: String) throws(OutputError) {
        self.path = path
        name = path == "-" ? "standard output" : path
        guard path != "-" else {
            guard isatty(STDOUT_FILENO) == 0 else {
                throw OutputError(name, refusal: "is a terminal; redirect it to a file or a pipe (> out.wav, | aplay)")
            }
            isStream = true
            target = "-"
            temporary = nil
            descriptor = try Self.spool(name)
            return
        }
        target = try Self.resolve(path)
        var info = stat()
        let exists = stat(target, &info) == 0
        if exists && info.st_mode & S_IFMT == S_IFDIR { throw OutputError(name, code: EISDIR) }
        if exists && info.st_mode & S_IFMT != S_IFREG {
            guard access(target, W_OK) == 0 else { throw OutputError(name, code: errno) }
            isStream = true
            temporary = nil
            descriptor = try Self.spool(name)
            return
        }
        isStream = false
        let (folder, file) = Self.split(target)
        OutputTemporaries.sweep(folder: folder, file: file)
        let temp = (folder.isEmpty ? "" : folder + "/") + ".\(file).\(getpid()).cabin-tmp"
        let fd = open(temp, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
        guard fd >= 0 else {
            let code = errno
            throw code == ENOENT ? OutputError(name, code: code, detail: "cannot write: no such folder \(folder.isEmpty ? "." : folder)")
                                 : OutputError(name, code: code)
        }
        if exists { fchmod(fd, info.st_mode & 0o7777) }
        temporary = temp
        descriptor = fd
        OutputTemporaries.register(temp)
    }

    deinit { discard() }

    /// Appends `bytes`. The corresponding C function is `write`.
    public func write(_ bytes: [UInt8]) throws(OutputError) {
        let code = bytes.withUnsafeBytes { Self.writeAll(descriptor, $0) }
        if code != 0 { throw OutputError(name, code: code) }
    }

    /// Appends `text` as UTF-8.
    public func write(_ text: String) throws(OutputError) { try write(Array(text.utf8)) }

    /// Puts the finished bytes in place: syncs and renames the temporary over the
    /// destination, or copies the spool to the stream. On failure nothing is left behind.
    /// The corresponding C functions are `fsync`, `close`, `rename` and `write`.
    public func commit() throws(OutputError) {
        precondition(!finished, "OutputFile committed twice")
        do throws(OutputError) {
            if let temporary {
                if fsync(descriptor) != 0 { throw OutputError(name, code: errno) }
                finished = true
                let closed = close(descriptor)
                if closed != 0 { let code = errno; unlink(temporary); throw OutputError(name, code: code) }
                if rename(temporary, target) != 0 { let code = errno; unlink(temporary); throw OutputError(name, code: code) }
                OutputTemporaries.unregister(temporary)
                committed = true
                let folder = Self.split(target).folder
                let dir = open(folder.isEmpty ? "." : folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
                if dir >= 0 { fsync(dir); close(dir) }
            } else {
                try copySpool()
                finished = true
                committed = true
                close(descriptor)
            }
        } catch {
            discard()
            throw error
        }
    }

    /// Abandons the output: the temporary is removed, the destination untouched. Does
    /// nothing after a successful `commit()`.
    public func discard() {
        guard !committed else { return }
        if let temporary {
            unlink(temporary)
            OutputTemporaries.unregister(temporary)
        }
        guard !finished else { return }
        finished = true
        close(descriptor)
    }

    /// True when `a` and `b` are the same existing file (device and inode, after symlinks):
    /// `./x.json`, `x.json` and a hard link of it are all the same. The corresponding C
    /// function is `stat`.
    public static func isSameFile(_ a: String, _ b: String) -> Bool {
        guard a != "-", b != "-" else { return false }
        var x = stat(), y = stat()
        guard stat(a, &x) == 0, stat(b, &y) == 0 else { return false }
        return x.st_dev == y.st_dev && x.st_ino == y.st_ino
    }

    private func copySpool() throws(OutputError) {
        let out = target == "-" ? STDOUT_FILENO : open(target, O_WRONLY | O_CLOEXEC)
        guard out >= 0 else { throw OutputError(name, code: errno) }
        defer { if out != STDOUT_FILENO { close(out) } }
        lseek(descriptor, 0, SEEK_SET)
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count < 0 { throw OutputError(name, code: errno) }
            if count == 0 { return }
            let code = chunk.withUnsafeBytes { Self.writeAll(out, UnsafeRawBufferPointer(rebasing: $0[..<count])) }
            if code != 0 { throw OutputError(name, code: code) }
        }
    }

    /// Writes all of `raw`; returns 0, or the errno of the failure.
    private static func writeAll(_ fd: Int32, _ raw: UnsafeRawBufferPointer) -> Int32 {
        var offset = 0
        while offset < raw.count {
            let written = Glibc.write(fd, raw.baseAddress! + offset, raw.count - offset)
            if written < 0 && errno == EINTR { continue }
            if written < 0 { return errno }
            offset += written
        }
        return 0
    }

    /// An unnamed, seekable file under `$TMPDIR` (or /tmp) that vanishes when closed.
    private static func spool(_ name: String) throws(OutputError) -> Int32 {
        let folder = getenv("TMPDIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        let temporaryFile: Int32 = 0o20000000 | O_DIRECTORY  // O_TMPFILE, which Glibc's module lacks
        let fd = open(folder, O_RDWR | temporaryFile | O_CLOEXEC, 0o600)
        guard fd < 0 else { return fd }
        var template = Array("\(folder)/.cabin-spool.XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard made >= 0 else { throw OutputError(name, code: errno, detail: "cannot make a spool file in \(folder)") }
        _ = fcntl(made, F_SETFD, FD_CLOEXEC)
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        return made
    }

    /// The file a path writes to: itself, or the final target of a symlink (even a
    /// dangling one).
    private static func resolve(_ path: String) throws(OutputError) -> String {
        var current = path
        for _ in 0..<32 {
            var info = stat()
            guard lstat(current, &info) == 0, info.st_mode & S_IFMT == S_IFLNK else { return current }
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let count = readlink(current, &buffer, buffer.count - 1)
            guard count > 0 else { throw OutputError(path, code: errno) }
            let link = String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            let folder = split(current).folder
            current = link.hasPrefix("/") || folder.isEmpty ? link : folder + "/" + link
        }
        throw OutputError(path, code: ELOOP)
    }

    static func split(_ path: String) -> (folder: String, file: String) {
        guard let slash = path.lastIndex(of: "/") else { return ("", path) }
        let folder = String(path[..<slash])
        return (folder.isEmpty ? "/" : folder, String(path[path.index(after: slash)...]))
    }
}
