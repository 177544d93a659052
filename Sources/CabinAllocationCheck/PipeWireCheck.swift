import CCabinShims
import CabinAudio
import CabinIO
import CabinPlayback
import CabinSession
import Glibc
import MallocInterposerSwift
import Synchronization

/// `--pipewire SOCKET [--target NODE] [--seconds S]`: plays the built-in scene live through
/// PipeWire (the daemon at SOCKET; the test support starts a private one): the pull driver
/// renders in `pw_stream`'s process callback, on PipeWire's real-time data thread. After a
/// second of warm-up, every allocation is counted, and those made on that thread (found by
/// its name, `PipeWireOutput.callbackThreadName`, among the process's threads) are the
/// figure: 0, or exit 1.
func pipeWireCheck(remote: String, target: String, seconds: Double) -> Int32 {
    let player: LivePlayer
    do {
        let scene = try AllocationScene.compile(seconds: seconds + 1, blockFrames: 256)
        var options = LivePlayer.Options(device: target)
        options.backend = PipeWireBackend(remote: remote)
        player = try LivePlayer(session: scene, options: options)
        try player.start()
    } catch {
        print("cabin-alloc-check: \(error)")
        return 2
    }
    usleep(1_000_000)
    guard let data = threadNamed(pipeWireDataThread) else {
        print("cabin-alloc-check: no \(pipeWireDataThread) thread: the stream is not running")
        player.stop()
        return 2
    }
    dataThread.store(data, ordering: .releasing)
    let before = player.status.position
    MallocInterposerSwift.initialize()
    MallocInterposerSwift.reset()
    MallocInterposerSwift.setAllocationHook { _ in
        hookedAllocations.add(1, ordering: .relaxed)
        if cabin_thread_id() == dataThread.load(ordering: .relaxed) { dataThreadAllocations.add(1, ordering: .relaxed) }
    }
    MallocInterposerSwift.hook()
    // Self-test: an allocation here must reach the hook, or a "0" below would prove nothing.
    let probe = UnsafeMutableRawPointer.allocate(byteCount: 64, alignment: 16)
    probe.deallocate()
    guard hookedAllocations.load(ordering: .acquiring) >= 1 else {
        print("cabin-alloc-check: the allocator is not hooked: run with LD_PRELOAD=<build dir>/libMallocInterposerSwift.so")
        player.stop()
        return 2
    }
    usleep(useconds_t(seconds * 1_000_000))
    MallocInterposerSwift.unhook()
    MallocInterposerSwift.setAllocationHook(nil)
    let all = MallocInterposerSwift.getStatistics()
    let played = player.status.position - before
    player.stop()
    player.waitUntilFinished()
    let counted = dataThreadAllocations.load(ordering: .acquiring)
    print("session: built-in scene through PipeWire (\(target), the pull driver in pw_stream's process callback)")
    print(String(cFormat: "played: %.1f s of the session in %.1f s counted", played, seconds))
    print("whole process: \(all.mallocCount) allocations (the checker's own probe, the control and loop threads)")
    print("\(pipeWireDataThread) thread: allocations: \(counted)")
    return counted == 0 && played > seconds * 0.9 ? 0 : 1
}

/// PipeWire's real-time data thread in a client (libpipewire's data loop, named by Cabin).
let pipeWireDataThread = PipeWireOutput.callbackThreadName
/// Its kernel id, found once it runs.
let dataThread = Atomic<Int32>(-1)
let dataThreadAllocations = Atomic<Int>(0)
/// Every allocation the hook saw, on any thread.
let hookedAllocations = Atomic<Int>(0)

/// The thread of this process with `name` (/proc/self/task/TID/comm).
func threadNamed(_ name: String) -> Int32? {
    for tid in directoryEntries("/proc/self/task") ?? [] {
        guard let id = Int32(tid), let file = fopen("/proc/self/task/\(tid)/comm", "r") else { continue }
        var buffer = [CChar](repeating: 0, count: 64)
        let read = fgets(&buffer, 64, file) != nil
        fclose(file)
        let line = read ? String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) : ""
        if line == name || line == name + "\n" { return id }
    }
    return nil
}
