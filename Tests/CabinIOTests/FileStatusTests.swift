import CabinIO
import CabinTestSupport
import Foundation
import Glibc
import Testing

/// The file-system helpers CabinPlayback's playlists, references and generator use in place
/// of `stat`, `lstat`, `realpath` and `opendir`.
@Suite struct FileStatusTests {
    @Test func aFileAFolderALinkAndNothing() throws {
        let dir = try TestEnvironment.temporaryDirectory("cabin-filestatus")
        let file = dir.appendingPathComponent("a.wav").path
        #expect(FileManager.default.createFile(atPath: file, contents: Data(repeating: 7, count: 1234)))
        let link = dir.appendingPathComponent("link").path
        #expect(symlink(dir.path, link) == 0)

        let fileStatus = try FileStatus(path: file)
        #expect(!fileStatus.isFolder && !fileStatus.isLink && fileStatus.size == 1234)
        // Followed, the link is the folder (the same device and inode); not followed, a link.
        let followed = try FileStatus(path: link)
        let folder = try FileStatus(path: dir.path)
        #expect(folder.isFolder && followed.isFolder && !followed.isLink)
        #expect(followed.device == folder.device && followed.inode == folder.inode)
        #expect(try FileStatus(path: link, followingLinks: false).isLink)

        do {
            _ = try FileStatus(path: dir.appendingPathComponent("missing/deeper").path)
            Issue.record("a missing path has a status")
        } catch {
            #expect(error.isNoSuchFile && error.code == ENOENT)
        }
        do {
            _ = try FileStatus(path: file + "/inside")
            Issue.record("a path through a file has a status")
        } catch {
            #expect(error.isNoSuchFile && error.code == ENOTDIR)
        }
        #expect(FileStatus.isReadable(file))
        #expect(!FileStatus.isReadable(dir.appendingPathComponent("missing").path))
    }

    @Test func resolvedPathsFollowLinksAndDots() throws {
        let dir = try TestEnvironment.temporaryDirectory("cabin-realpath")
        let real = try #require(FileStatus.resolvedPath(dir.path))
        let link = dir.appendingPathComponent("up").path
        #expect(symlink("..", link) == 0)
        #expect(FileStatus.resolvedPath(link + "/" + dir.lastPathComponent + "/.") == real)
        #expect(FileStatus.resolvedPath(dir.appendingPathComponent("missing").path) == nil)
    }

    @Test func directoryEntriesListNamesButNotDots() throws {
        let dir = try TestEnvironment.temporaryDirectory("cabin-entries")
        for name in ["b", "a", ".hidden"] {
            #expect(FileManager.default.createFile(atPath: dir.appendingPathComponent(name).path, contents: nil))
        }
        #expect(directoryEntries(dir.path)?.sorted() == [".hidden", "a", "b"])
        #expect(directoryEntries(dir.appendingPathComponent("missing").path) == nil)
        // /proc/self/task lists this process's threads by id: the main thread's is the pid.
        #expect(directoryEntries("/proc/self/task")?.contains(String(ThisProcess.id)) == true)
    }
}

/// The clocks, and the condition variable the radio's composing thread and renderer share.
@Suite struct ClockAndWakeSignalTests {
    @Test func theMonotonicClockMovesWithASleep() {
        let before = MonotonicClock.seconds()
        ThreadSleep.sleep(for: .milliseconds(20))
        let slept = MonotonicClock.seconds() - before
        #expect(slept >= 0.019 && slept < 5, "\(slept)")
        ThreadSleep.microseconds(5_000)
        #expect(MonotonicClock.seconds() - before >= slept + 0.004)
    }

    @Test func threadCPUTimeCountsWorkNotSleep() {
        let start = ThreadCPUClock.nanoseconds()
        ThreadSleep.sleep(for: .milliseconds(50))
        let asleep = ThreadCPUClock.nanoseconds() - start
        var x = 1.0
        let busyStart = ThreadCPUClock.seconds()
        while ThreadCPUClock.seconds() - busyStart < 0.02 { x = x * 1.000001 + 1e-9 }
        #expect(x > 1)
        #expect(asleep < 20_000_000, "\(asleep) ns of CPU while asleep 50 ms")
        #expect(ThreadCPUClock.nanoseconds() - start >= 20_000_000)
    }

    @Test func aWaiterWakesOnceItsConditionHolds() throws {
        final class Flags: @unchecked Sendable { var ready = false, seen = false }  // read and written under `signal`'s lock
        let signal = WakeSignal(), flags = Flags()
        let waiter = Thread {
            signal.wait { flags.ready }
            signal.locked { flags.seen = true }
        }
        waiter.start()
        // Woken with the condition still false: it waits on.
        ThreadSleep.sleep(for: .milliseconds(20))
        signal.wakeAll()
        ThreadSleep.sleep(for: .milliseconds(20))
        #expect(!signal.locked { flags.seen })
        signal.locked { flags.ready = true }
        signal.wakeAll()
        let deadline = MonotonicClock.seconds() + 5
        while !signal.locked({ flags.seen }) && MonotonicClock.seconds() < deadline { ThreadSleep.microseconds(1_000) }
        #expect(signal.locked { flags.seen })
    }
}
