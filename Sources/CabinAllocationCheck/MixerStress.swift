// `cabin-alloc-check --mixer-stress`: the mixer render path alone, pushed hard.
//
//   swift build -c release --product cabin-alloc-check
//   LD_PRELOAD=.build/release/libMallocInterposerSwift.so .build/release/cabin-alloc-check --mixer-stress
//
// Renders the benchmark's drive scene (loops, repitching under parameter ramps, noise
// crossfades, one-shots, ducking), pushed harder — a click every 20 ms on a one-voice ui bus
// so voices are stolen all the time, and +12 dB master gain so the limiter really limits —
// for a warm-up, then counts every malloc/free over
// many more blocks while commands and live parameter changes keep arriving. The count of an
// empty hook()/unhook() bracket measured just before (the harness's own bookkeeping: 0 or 1
// malloc and free here, whatever the work inside) is subtracted. Exits 1 if the render path allocated or freed anything, 2 if the interposer
// counts nothing (not loaded).
import CabinAudio
import CabinBench
import MallocInterposerSwift

/// Mallocs and frees counted between hook() and unhook() around `body`.
func counted(_ body: () -> Void) -> (mallocs: Int, frees: Int) {
    MallocInterposerSwift.hook()  // also resets the counts
    body()
    MallocInterposerSwift.unhook()
    let s = MallocInterposerSwift.getStatistics()
    return (s.mallocCount, s.freeCount)
}

/// `--mixer-stress`: the mixer alone, pushed hard (see the header).
func mixerStressCheck() -> Int32 {
    let blockFrames = 256
    let warmUpBlocks = 200, measuredBlocks = 8_000  // ≈ 1 s, then ≈ 43 s at 48 kHz
    var (config, commands) = MixerBenchmark.driveScene(seconds: 60)
    config.masterGain = 12  // make the limiter work, not just watch
    // Make voice stealing happen too: one voice on the ui bus, clicks every 20 ms.
    let ui = config.bus(named: "ui")!
    config.buses[Int(ui.index)].polyphony = 1
    let click = commands.first { if case .playOneShot(_, ui, _) = $0.action { true } else { false } }!
    for t in stride(from: 0, to: 60 * 48_000, by: 960) { commands.append(MixerCommand(at: FrameTime(t), click.action)) }
    commands.sort { $0.time < $1.time }
    let (mixer, handle) = config.make()
    let speed = config.parameter(named: "speed")!
    var buffer = [Float](repeating: 0, count: 2 * blockFrames)
    var next = 0

    MallocInterposerSwift.initialize()
    let probe = counted { _ = [Int](repeating: 1, count: 1_000) }
    guard probe.mallocs > 0 else {
        print("cabin-alloc-check: the interposer counts nothing; "
              + "run with LD_PRELOAD=.build/release/libMallocInterposerSwift.so")
        return 2
    }

    var steady = (mallocs: 0, frees: 0), baseline = (mallocs: 0, frees: 0)
    buffer.withUnsafeMutableBufferPointer { out in
        func block(_ index: Int) {
            // Control side, as a session runner would: commands a second ahead, live speed.
            let now = FrameTime(index * blockFrames)
            while next < commands.count, commands[next].time < now + 48_000, handle.send(commands[next]) { next += 1 }
            if index % 50 == 0 { handle.setParameter(speed, to: Double(index % 80)) }
            mixer.render(into: out, frameCount: blockFrames)
        }
        for i in 0..<warmUpBlocks { block(i) }
        baseline = counted {}
        steady = counted { for i in warmUpBlocks..<(warmUpBlocks + measuredBlocks) { block(i) } }
    }
    let mallocs = steady.mallocs - baseline.mallocs, frees = steady.frees - baseline.frees
    let counters = handle.counters
    print("cabin-alloc-check: \(measuredBlocks) blocks of \(blockFrames) frames after \(warmUpBlocks) warm-up, "
          + "\(next) commands, \(counters.stolenVoices) steals, limiter down to "
          + "\(Int(Decibels(linearGain: counters.limiterMinimumGain).value * 10) / 10) dB: "
          + "\(mallocs) mallocs, \(frees) frees in steady state "
          + "(\(steady.mallocs)/\(steady.frees) counted, \(baseline.mallocs)/\(baseline.frees) in an empty bracket)")
    print("cabin-alloc-check: " + MixerBenchmark.run(seconds: 60, blockFrames: blockFrames).description)
    print("cabin-alloc-check: limiter off: " + MixerBenchmark.run(seconds: 60, blockFrames: blockFrames, isLimiterEnabled: false).description)
    return mallocs == 0 && frees == 0 ? 0 : 1
}

