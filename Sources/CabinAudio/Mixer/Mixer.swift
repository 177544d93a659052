/// The real-time mixer: the audio-thread processor made by `MixerConfig.make()`.
///
/// `render(into:frameCount:)` produces interleaved stereo: every voice into its bus, bus
/// gains and ducking, master gain, then the true-peak limiter (or the plain sum with the
/// limiter off). It never allocates, locks, throws, prints or does I/O: voices, scratch
/// buffers and queues were all allocated when the mixer was made.
///
/// Timing is sample-accurate and independent of block size: commands wait in a queue
/// ordered by due frame and each block is split at their frames; every ramp, envelope,
/// oscillator and noise generator advances per sample. The same scene rendered in blocks
/// of 1, 7, 64 or 512 frames is bit-identical. (Live parameters set through
/// `MixerHandle.setParameter` are the exception by nature: they are noticed at a block
/// start.)
///
/// Thread: owned by one thread at a time — made on the control thread, then handed to the
/// audio thread, which alone calls `render…`. Release it on the control thread after the
/// audio thread has stopped (its `deinit` frees memory).
public final class Mixer: @unchecked Sendable {
    // @unchecked Sendable: the mixer is moved, not shared. Exactly one thread (the audio
    // thread while it runs) calls its methods; all cross-thread traffic goes through
    // `shared` (atomics and the SPSC ring).

    let shared: MixerShared
    // Raw-pointer views of `shared`'s parts for the render path, so that reaching them does
    // no reference counting (which the compiler's `@_noLocks` check rejects). `shared`
    // above keeps their memory alive for the mixer's whole life.
    let ring: CommandRing.View
    let cells: MixerCells
    /// Frames per second. Any thread (immutable).
    public let sampleRate: Double
    /// Largest block rendered in one pass (longer requests are split internally). Any
    /// thread (immutable).
    public let maxBlockFrames: Int
    /// True when the output runs through the true-peak limiter. Any thread (immutable).
    public let isLimiterEnabled: Bool
    /// The limiter's output ceiling: −1.5 dBTP (the −1 dBTP target with 0.5 dB of margin for
    /// the estimate). A mix whose true peak goes above it is pulled down by the difference.
    public static let limiterCeiling = Decibels(-1.5)
    /// Frames by which the limiter delays the output (77 at 48 kHz; 0 with the limiter
    /// off): a command at frame N is heard at output frame N + latencyFrames. Any thread
    /// (immutable).
    public let latencyFrames: Int

    let busCount: Int, voiceCount: Int, layerCount: Int, parameterCount: Int, duckCount: Int
    let minimumRampFrames: Int64, liveRampFrames: Int64, stealFrames: Int64

    /// Every bus's effects, bus after bus (`BusState.firstEffect`), built by `make()`.
    let effects: UnsafeMutablePointer<any BusEffect>
    let effectCount: Int
    let voices: UnsafeMutablePointer<Voice>
    let buses: UnsafeMutablePointer<BusState>
    let layers: UnsafeMutablePointer<LayerState>
    let layerMaps: UnsafeMutablePointer<LayerMaps>
    let mapPoints: UnsafeMutablePointer<Double>
    let parameters: UnsafeMutablePointer<ParameterState>
    let parameterValues: UnsafeMutablePointer<Double>
    let parameterMoving: UnsafeMutablePointer<Bool>
    let ducks: UnsafeMutablePointer<DuckState>
    /// `duckAffects[r * busCount + b]`: rule `r` ducks bus `b`.
    let duckAffects: UnsafeMutablePointer<Bool>
    /// Per-rule duck gain for each frame of the segment: row `r` at `r * maxBlockFrames`.
    let duckGains: UnsafeMutablePointer<Float>
    /// The band rules' cuts, one per (rule, ducked bus), in rule order.
    let bandDucks: UnsafeMutablePointer<BandDuck>
    let bandDuckCount: Int
    /// Whether rule `r` moves during the segment (if not, only `duckGains` row entry 0 is
    /// valid).
    let duckMoving: UnsafeMutablePointer<Bool>
    /// Per-bus stereo scratch: bus `b` at `b * 2 * maxBlockFrames`.
    let busBuffers: UnsafeMutablePointer<Float>
    /// Each bus's peak (after gain and ducking) since the last publish.
    let busPeaks: UnsafeMutablePointer<Float>
    /// Stereo sum of the buses for one segment.
    let mixBuffer: UnsafeMutablePointer<Float>
    let context: VoiceRenderContext

    var pending: PendingQueue
    var limiter: TruePeakLimiter
    var master: DecibelRamp
    /// The listener's master volume (`MixerHandle.setVolume`), on top of `master`, which
    /// the timeline and the transport's fades move.
    var masterVolume = DecibelRamp(0)
    /// The engine clock: the frame the next rendered sample belongs to.
    var clock: FrameTime = 0
    var nextVoiceSerial: Int64 = 0
    /// Voices not idle after the last segment rendered (for the published counter).
    var activeVoiceCount = 0
    var liveGeneration: UInt64 = 0
    var lateCount = 0, invalidCount = 0, deferredCount = 0, stolenCount = 0, droppedCount = 0

    init(config: MixerConfig, shared: MixerShared) {
        self.shared = shared
        ring = shared.ring.view
        cells = shared.cells.view
        sampleRate = config.sampleRate
        maxBlockFrames = config.maxBlockFrames
        isLimiterEnabled = config.isLimiterEnabled
        busCount = config.buses.count
        layerCount = config.layers.count
        parameterCount = config.parameters.count
        duckCount = config.ducking.count
        let rampFrames = { (seconds: Double) in max(1, Int64((seconds * config.sampleRate).rounded())) }
        minimumRampFrames = rampFrames(config.minimumRampDuration)
        liveRampFrames = rampFrames(config.liveParameterRampDuration)
        stealFrames = rampFrames(config.stealFadeDuration)

        buses = .allocate(capacity: max(1, busCount))
        var slot = 0
        for (b, bus) in config.buses.enumerated() {
            (buses + b).initialize(to: BusState(firstSlot: slot, slotCount: 2 * bus.polyphony,
                                                polyphony: bus.polyphony, gain: DecibelRamp(bus.gain.value)))
            slot += 2 * bus.polyphony
        }
        voiceCount = slot
        (effects, effectCount) = Mixer.makeEffects(config, buses: buses)
        voices = .allocate(capacity: max(1, voiceCount))
        voices.initialize(repeating: Voice(), count: max(1, voiceCount))

        let setup = MixerSetup(config: config)
        layers = setup.layers
        layerMaps = setup.layerMaps
        mapPoints = setup.mapPoints
        parameters = setup.parameters
        ducks = setup.ducks
        duckAffects = setup.duckAffects
        bandDucks = setup.bandDucks
        bandDuckCount = setup.bandDuckCount

        let block = maxBlockFrames
        parameterValues = .zeroed(max(1, parameterCount * block))
        parameterMoving = .allocate(capacity: max(1, parameterCount))
        parameterMoving.initialize(repeating: false, count: max(1, parameterCount))
        duckGains = .allocate(capacity: max(1, duckCount * block))
        duckGains.initialize(repeating: 1, count: max(1, duckCount * block))
        duckMoving = .allocate(capacity: max(1, duckCount))
        duckMoving.initialize(repeating: false, count: max(1, duckCount))
        busPeaks = .zeroed(max(1, busCount))
        busBuffers = .zeroed(max(1, busCount * 2 * block))
        mixBuffer = .zeroed(2 * block)

        context = VoiceRenderContext(
            assets: shared.assets.slots.baseAddress!, assetCount: shared.assets.count,
            parameterValues: parameterValues, parameterMoving: parameterMoving, stride: block,
            layerMaps: layerMaps, mapPoints: mapPoints, gainScratch: .allocate(capacity: block),
            pitchScratch: .allocate(capacity: block),
            brown: BrownCoefficients(sampleRate: config.sampleRate),
            streams: shared.streams.slots.baseAddress!, streamCount: shared.streams.count,
            scatters: shared.scatters.slots.baseAddress!, scatterCount: shared.scatters.count,
            scatterSums: .zeroed(2 * block),
            scatterFadeRate: 1 / (0.01 * config.sampleRate),
            sampleRate: config.sampleRate,
            radiansPerHertz: 2 * Double.pi / config.sampleRate)
        pending = PendingQueue(capacity: config.pendingCapacity)
        limiter = TruePeakLimiter(sampleRate: config.sampleRate)
        latencyFrames = config.isLimiterEnabled ? limiter.latencyFrames : 0
        master = DecibelRamp(config.masterGain.value)
        liveGeneration = cells.generation
    }

    deinit {
        busBuffers.deallocate(); busPeaks.deallocate(); mixBuffer.deallocate(); duckGains.deallocate(); duckMoving.deallocate()
        parameterValues.deallocate()
        effects.deinitialize(count: effectCount); effects.deallocate()
        voices.deallocate(); buses.deallocate(); layers.deallocate(); layerMaps.deallocate()
        mapPoints.deallocate(); parameters.deallocate(); parameterMoving.deallocate(); context.gainScratch.deallocate()
        context.pitchScratch.deallocate()
        context.scatterSums.deallocate()
        ducks.deallocate(); duckAffects.deallocate(); bandDucks.deallocate()
        pending.deallocate()
        limiter.deallocate()
    }

    /// Renders `frameCount` frames of interleaved stereo into `output` (which must hold
    /// `2 * frameCount` samples; a shorter buffer is filled as far as it goes).
    ///
    /// Render thread: safe — no allocation, locks, errors, printing or I/O.
    #if !DEBUG  // checked by the optimizer; debug code calls unspecialised generics
    @_noAllocation @_noLocks
    #endif
    public func render(into output: UnsafeMutableBufferPointer<Float>, frameCount: Int) {
        guard let out = output.baseAddress else { return }
        let total = min(frameCount, output.count / 2)
        processLiveParameters()
        processCommandRing()
        var done = 0
        while done < total {
            processDueCommands()
            var n = min(total - done, maxBlockFrames)
            if let next = pending.nextTime, next > clock { n = min(n, Int(next - clock)) }
            renderSegment(into: out + 2 * done, frameCount: n)
            clock += FrameTime(n)
            done += n
        }
        processPublishCounters()
    }

    /// Parameter number `index`'s value as the last rendered frame had it (its ramp's
    /// position: timeline ramps and live values alike), for haptic players that follow the
    /// running session (`SessionRunner.processHapticFeed`). Out of range: 0.
    ///
    /// Render thread: safe.
    #if !DEBUG
    @_noAllocation @_noLocks
    #endif
    public func processParameterValue(_ index: Int) -> Double {
        if index < 0 { return 0 }
        if index >= parameterCount { return 0 }
        return parameters[index].ramp.value
    }
}
