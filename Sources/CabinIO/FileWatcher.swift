import CabinAudio
import FoundationEssentials
import Glibc

/// Tells when files are saved, through Linux inotify (`inotify(7)`), as editors save them.
/// Each file's folder is watched, not the file: an editor that saves by writing a new file
/// and renaming it over the old one (Vim, VS Code, `mv`) replaces the inode a watch on the
/// file would follow. A save is the file closed after writing (`IN_CLOSE_WRITE`) or another
/// file renamed onto its name (`IN_MOVED_TO`); its removal (`IN_DELETE`, `IN_MOVED_FROM`) is
/// reported too, so a caller can say that the file has gone.
///
/// ```swift
/// let watcher = try FileWatcher(paths: ["Boing.ahap"])
/// while true { for change in watcher.wait(timeoutMilliseconds: 100) { print(change.path, change.kind) } }
/// ```
///
/// Thread: one thread at a time (any thread but the render thread).
public final class FileWatcher {
    /// What happened to a watched file.
    public struct Change: Sendable, Equatable {
        /// Saved or removed.
        public enum Kind: Sendable, Equatable {
            /// Written and closed, or renamed into place: read it again.
            case saved
            /// Removed or renamed away.
            case removed
        }
        /// The path as given to `init`.
        public var path: String
        /// Whether the file was saved or removed.
        public var kind: Kind
        /// When the first event of the change was read (`CLOCK_MONOTONIC` seconds): where a
        /// save's latency is measured from.
        public var seenAt: Double
    }

    private let descriptor: Int32
    /// Each watch's folder: its descriptor → the file names watched in it → the paths given.
    private var watched: [Int32: [String: [String]]] = [:]
    private var buffer = [UInt8](repeating: 0, count: 64 * 1024)

    /// Watches `paths` (files that need not exist yet; their folders must).
    public init(paths: [String]) throws(FileWatcherError) {
        descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard descriptor >= 0 else { throw FileWatcherError(path: paths.first ?? "", operation: "inotify_init1", code: errno) }
        let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_DELETE | IN_MOVED_FROM)
        for path in paths {
            let url = URL(fileURLWithPath: path)
            let folder = url.deletingLastPathComponent().path
            let watch = inotify_add_watch(descriptor, folder.isEmpty ? "." : folder, mask)
            guard watch >= 0 else {
                let code = errno
                close(descriptor)
                throw FileWatcherError(path: path, operation: "inotify_add_watch", code: code)
            }
            watched[watch, default: [:]][url.lastPathComponent, default: []].append(path)
        }
    }

    deinit { close(descriptor) }

    /// Waits up to `timeoutMilliseconds` for a change to a watched file, then gathers what
    /// else arrives within `settleMilliseconds` of quiet (an editor's save is often several
    /// events: a write, a rename, a second write), and returns each path once, with its last
    /// kind, in the order first seen. Empty when nothing happened (or a signal came).
    public func wait(timeoutMilliseconds: Int32, settleMilliseconds: Int32 = 15) -> [Change] {
        var changes: [Change] = []
        var timeout = timeoutMilliseconds
        while true {
            var pfd = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&pfd, 1, timeout) > 0 else { return changes }
            let seen = FileWatcher.now()
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { return changes }
            buffer.withUnsafeBytes { raw in
                var offset = 0
                while offset + MemoryLayout<inotify_event>.size <= count {
                    let event = raw.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
                    let nameStart = offset + MemoryLayout<inotify_event>.size
                    let nameBytes = raw[nameStart..<min(count, nameStart + Int(event.len))].prefix { $0 != 0 }
                    let name = String(decoding: nameBytes, as: UTF8.self)
                    offset = nameStart + Int(event.len)
                    guard let paths = watched[event.wd]?[name] else { continue }
                    let kind: Change.Kind = event.mask & UInt32(IN_DELETE | IN_MOVED_FROM) != 0 ? .removed : .saved
                    for path in paths {
                        if let i = changes.firstIndex(where: { $0.path == path }) { changes[i].kind = kind } else {
                            changes.append(Change(path: path, kind: kind, seenAt: seen))
                        }
                    }
                }
            }
            timeout = changes.isEmpty ? timeoutMilliseconds : settleMilliseconds
        }
    }

    /// `CLOCK_MONOTONIC` in seconds (the clock of `Change.seenAt`): `MonotonicClock.seconds()`.
    public static func now() -> Double { MonotonicClock.seconds() }
}

/// A file cannot be watched (its folder is missing or unreadable, or the watch limit is reached).
public struct FileWatcherError: Error, Sendable, CustomStringConvertible {
    /// The file that cannot be watched, as given.
    public var path: String
    /// The call that failed (`inotify_init1`, `inotify_add_watch`).
    public var operation: String
    /// The errno it failed with (`ENOENT`: no folder; `ENOSPC`: the watch limit).
    public var code: Int32
    public var description: String {
        let reason = String(cString: strerror(code))
        return "\(path.terminalSafe): cannot watch for saves: \(reason.prefix(1).lowercased() + reason.dropFirst()) (\(operation))"
    }
}
