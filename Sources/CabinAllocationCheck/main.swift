// cabin-alloc-check: proves the render path does not allocate.
//
// Usage (the allocation test runs it like this, in release):
//   LD_PRELOAD=.build/release/libMallocInterposerSwift.so .build/release/cabin-alloc-check [SESSION.json] [--seconds 60] [--block 256]
//   … cabin-alloc-check --pipewire SOCKET [--target NODE] [--seconds 5]   (live, through PipeWire: PipeWireCheck.swift)
// (It links the interposer, so its malloc/free are counted even without LD_PRELOAD; the
// preload makes sure no other library resolved malloc first.)
//
// It loads a session (the file given, or a built-in scene that uses every mixer feature:
// looping assets with loop points, synthesized noises and tones, a stream fed by a producer
// thread, a pitch map following a parameter ramp, ducking, one-shots, crossfades, fades,
// stops), renders one second to warm up, then hooks malloc/free and renders the rest block
// by block the way a playback thread does, and prints the counts. Exit status 0 only when nothing was allocated or freed.
import CabinAudio
import CabinIO
import CabinPlayback
import CabinRadio
import CabinSession
import Glibc
import MallocInterposerSwift

var arguments = Array(CommandLine.arguments.dropFirst())
if arguments.contains("--mixer-stress") { exit(mixerStressCheck()) }
if let i = arguments.firstIndex(of: "--pipewire"), i + 1 < arguments.count {
    let value = { (option: String, fallback: String) in
        arguments.firstIndex(of: option).flatMap { $0 + 1 < arguments.count ? arguments[$0 + 1] : nil } ?? fallback
    }
    exit(pipeWireCheck(remote: arguments[i + 1], target: value("--target", "default"),
                       seconds: Double(value("--seconds", "5")) ?? 5))
}
var seconds = 60.0
var blockFrames = 256
// For the checker's own test: allocate once per block, to show a leak of allocations is caught.
let injectAllocation = arguments.contains("--inject-allocation")
arguments.removeAll { $0 == "--inject-allocation" }
if let i = arguments.firstIndex(of: "--seconds"), i + 1 < arguments.count {
    seconds = Double(arguments[i + 1]) ?? seconds
    arguments.removeSubrange(i...(i + 1))
}
if let i = arguments.firstIndex(of: "--block"), i + 1 < arguments.count {
    blockFrames = Int(arguments[i + 1]) ?? blockFrames
    arguments.removeSubrange(i...(i + 1))
}

let compiled: CompiledSession
let label: String
var feeder: StreamFeeder?
var radio: (any SessionRadio)?
RadioStations.register()
do {
    if let path = arguments.first {
        let loaded = try SessionLoader.load(path: path, sampleRate: 48000, maxBlockFrames: blockFrames,
                                            library: try? SoundLibrary.standard(), patterns: HapticPatternLibrary.locate())
        for warning in loaded.warnings { print("warning: \(warning)") }
        // A playlist's tracks are decoded into its stream ahead of time (as far as the ring
        // holds, 12 s), so the counted blocks play real tracks through the stream voice.
        loaded.radio.fill(frames: Int(48000 * (seconds + 1.5)))
        radio = loaded.radio
        compiled = loaded.compiled
        label = path
    } else {
        var scene = try AllocationScene.compile(seconds: seconds, blockFrames: blockFrames)
        feeder = StreamFeeder(stream: AllocationScene.addStream(to: &scene))
        AllocationScene.addScatter(to: &scene)
        try feeder?.start()
        compiled = scene
        label = "built-in scene"
    }
} catch {
    print("cabin-alloc-check: \(error)")
    exit(2)
}

let runner = SessionRunner(compiled)
// A haptic player listens: every block publishes the session's state (the ring fills, then
// drops and counts; both paths run while counted).
let hapticFeed = HapticFeed(compiled)
hapticFeed.isListening = true
let block = UnsafeMutableBufferPointer<Float>.allocate(capacity: 2 * blockFrames)
block.initialize(repeating: 0)
// A haptics device listens too (`cabin play --haptics-device`): the session's haptic track,
// following it live, rendered after every block, with two `leave-focus` haptics sent ahead.
let hapticTrack = SessionHapticTrack(following: compiled)
let hapticBlock = UnsafeMutableBufferPointer<Float>.allocate(capacity: blockFrames)
hapticBlock.initialize(repeating: 0)
var hapticPeak: Float = 0
if let focus = compiled.focus {
    for at in [2.0, 5.0] { hapticTrack.live?.trigger(pattern: focus.haptic, frame: FrameTime(at * 48000)) }
}
@MainActor func renderBlock() -> Int {
    let from = runner.position
    let n = runner.render(into: block, frameCount: blockFrames)
    let lead = runner.lookAheadFrames
    hapticTrack.live?.processPeriod(from: from, advanced: n, lead: lead) { runner.processParameterValue($0) }
    hapticTrack.render(into: UnsafeMutableBufferPointer(rebasing: hapticBlock[0..<n]), from: from, frameCount: n)
    for i in 0..<n { hapticPeak = max(hapticPeak, abs(hapticBlock[i])) }
    return n
}
let warmupFrames = Int(48000 * 1.0)
var rendered = 0
while rendered < warmupFrames && !runner.isFinished {
    rendered += renderBlock()
}

MallocInterposerSwift.initialize()
// Self-test: a counted allocation must show up, or the interposer is not preloaded and a
// "0" below would prove nothing.
MallocInterposerSwift.hook()
let probe = UnsafeMutableRawPointer.allocate(byteCount: 64, alignment: 16)
probe.deallocate()
MallocInterposerSwift.unhook()
guard MallocInterposerSwift.getStatistics().mallocCount >= 1 else {
    print("cabin-alloc-check: the allocator is not hooked: run with LD_PRELOAD=<build dir>/libMallocInterposerSwift.so")
    exit(2)
}
MallocInterposerSwift.reset()

MallocInterposerSwift.hook()
var measured = 0
var peak: Float = 0
let target = Int(seconds * 48000)
while measured < target && !runner.isFinished {
    let n = renderBlock()
    runner.processHapticFeed(hapticFeed.view, base: 0)
    measured += n
    if injectAllocation {
        let leak = UnsafeMutableRawPointer.allocate(byteCount: 32, alignment: 8)
        leak.deallocate()
    }
    // Touch the output so the work cannot be optimised away (no allocation here).
    for i in 0..<(2 * n) { peak = max(peak, abs(block[i])) }
}
MallocInterposerSwift.unhook()
let stats = MallocInterposerSwift.getStatistics()
feeder?.stop()

print("session: \(label)")
print(String(cFormat: "rendered: %.1f s in blocks of %d frames after 1 s warm-up (peak %.3f)",
             Double(measured) / 48000, blockFrames, peak))
if let stream = feeder?.stream {
    // Rendering runs far faster than real time, so the producer falls behind: underflows too.
    print("stream: \(stream.playedFrames) frames from a producer thread played, \(stream.underflowFrames) played as underflow")
}
for event in radio?.poll() ?? [] { print("radio: \(event)") }
print(String(cFormat: "haptics device track (live): largest sample %.3f, live cues dropped %d", hapticPeak, hapticTrack.live?.droppedTriggers ?? 0))
print("allocations: \(stats.mallocCount) (\(stats.mallocBytesCount) bytes), frees: \(stats.freeCount)")
exit(stats.mallocCount == 0 && stats.freeCount == 0 && measured >= min(target, 10 * 48000) ? 0 : 1)
