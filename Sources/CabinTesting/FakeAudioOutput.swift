import CabinIO
import CabinOutput
import CabinPlayback

/// Time that moves only when the render loop waits: the clock of `FakeAudioBackend`, in
/// frames of its rate, with actions scheduled at exact times (pause here, seek there, lose
/// the device, stall the thread).
///
/// Actions run on the thread that advances the clock — the render thread — in time order,
/// so a test's script is exact and repeatable: `clock.at(1.5) { player.pause() }`.
///
/// Thread: set up before playback starts; then only the render thread touches it, until
/// `LivePlayer.waitUntilFinished()` returns (the join orders everything after it).
public final class VirtualClock: @unchecked Sendable {
    /// Ticks per second (the output's sample rate).
    public let rate: Int
    /// Now, in ticks.
    public private(set) var frame: Int64 = 0
    private var actions: [(frame: Int64, order: Int, body: () -> Void)] = []
    private var nextOrder = 0
    /// Set by `stall`: the wait in progress ends no earlier than this.
    private var wakeNoEarlierThan: Int64 = 0

    /// A clock at tick 0 with `rate` ticks per second (the output's sample rate, in Hz; more
    /// than 0).
    public init(rate: Int) {
        precondition(rate > 0)
        self.rate = rate
    }

    /// Now, in seconds.
    public var seconds: Double { Double(frame) / Double(rate) }

    /// Runs `body` when the clock reaches `seconds` (rounded to a tick).
    public func at(_ seconds: Double, _ body: @escaping () -> Void) {
        actions.append((Int64((seconds * Double(rate)).rounded()), nextOrder, body))
        nextOrder += 1
        actions.sort { ($0.frame, $0.order) < ($1.frame, $1.order) }
    }

    /// At `seconds`, the render thread stops running for `duration` seconds (as a preempted
    /// thread would): the wait in progress then ends no earlier than `seconds + duration`.
    public func stall(at seconds: Double, for duration: Double) {
        at(seconds) { [unowned self] in
            wakeNoEarlierThan = max(wakeNoEarlierThan, frame + Int64((duration * Double(rate)).rounded()))
        }
    }

    /// Moves to `target` (or past it, after a stall), running due actions in order; stops
    /// early, right after an action, if `interrupted()` becomes true. Returns whether it stopped early.
    @discardableResult
    func advance(to target: Int64, interrupted: () -> Bool = { false }) -> Bool {
        var target = max(target, frame)
        while let next = actions.first, next.frame <= max(target, wakeNoEarlierThan) {
            actions.removeFirst()
            frame = max(frame, next.frame)
            next.body()
            target = max(target, wakeNoEarlierThan)
            if interrupted() && frame >= wakeNoEarlierThan { return true }
        }
        frame = max(target, wakeNoEarlierThan, frame)
        return false
    }
}

/// Outputs that play on a `VirtualClock`: every frame written is "heard" at the time the
/// clock reaches it; nothing is real-time and nothing is sound. For testing the transport
/// (pause, seek, underruns, a lost and restored device) at tiny sizes, and for embedders'
/// own tests.
///
/// ```swift
/// let backend = FakeAudioBackend(rate: 1000)
/// var options = LivePlayer.Options(device: "fake", configuration: OutputConfiguration(sampleRate: 1000, periodFrames: 8))
/// options.backend = backend
/// let player = try LivePlayer(session: compiled, options: options)
/// backend.clock.at(0.5) { player.pause() }
/// try player.start(); player.waitUntilFinished()
/// let heard = backend.heard()   // interleaved stereo, on the clock's timeline
/// ```
///
/// Thread: as `VirtualClock`.
public final class FakeAudioBackend: AudioOutputBackend, @unchecked Sendable {
    /// The clock every device it opens plays on and the player sleeps on; schedule a test's
    /// actions on it (`clock.at(1.5) { … }`).
    public let clock: VirtualClock
    /// Every push output opened, in order.
    public private(set) var outputs: [FakeAudioOutput] = []
    /// Every device opened, push and pull, in order.
    public private(set) var opened: [any FakeDevice] = []
    /// Whether it opens pull devices (`FakePullOutput`: the device calls the player, as
    /// PipeWire does) instead of push devices (`FakeAudioOutput`, as ALSA).
    public let pulls: Bool
    /// Opening fails (`notFound`) before this time on the clock, in seconds.
    public var unavailableUntil = 0.0
    /// Opens refused so far.
    public private(set) var refusedOpens = 0

    /// A backend whose clock ticks at `rate` Hz, opening pull devices when `pulls`, else push
    /// devices.
    public init(rate: Int, pulls: Bool = false) {
        clock = VirtualClock(rate: rate)
        self.pulls = pulls
    }

    public func open(device: String, configuration: OutputConfiguration) throws(AudioDeviceError) -> OpenedOutput {
        guard clock.seconds >= unavailableUntil else {
            refusedOpens += 1
            throw AudioDeviceError(.notFound, device: device, operation: "open", code: 2, detail: "the fake device is away")
        }
        if pulls {
            let output = FakePullOutput(device: device, configuration: configuration, clock: clock)
            opened.append(output)
            return .pull(output)
        }
        let output = FakeAudioOutput(device: device, configuration: configuration, clock: clock)
        outputs.append(output)
        opened.append(output)
        return .push(output)
    }

    public func now() -> Double { clock.seconds }

    public func sleep(seconds: Double, wakeupDescriptor: Int32) -> Bool {
        let woken = clock.advance(to: clock.frame + Int64((seconds * Double(clock.rate)).rounded())) {
            EventFD.isReadable(wakeupDescriptor)
        }
        return woken || EventFD.isReadable(wakeupDescriptor)
    }

    /// Everything heard on every output, interleaved, laid on the clock's timeline from 0
    /// (silence before the first start and while no output played).
    public func heard() -> [Float] {
        var all: [Float] = []
        for output in opened {
            guard let start = output.startedAt else { continue }
            let channels = output.negotiated.channelCount
            let at = Int(start) * channels
            if all.count < at { all += [Float](repeating: 0, count: at - all.count) }
            all.replaceSubrange(at..<min(all.count, at + output.heard.count), with: output.heard)
        }
        return all
    }

    /// The output currently open (the last one).
    public var current: FakeAudioOutput? { outputs.last }
}

/// What tests read of any fake device, push or pull.
///
/// Thread: the test's thread reads it; the player's threads drive the device itself.
public protocol FakeDevice: AnyObject {
    /// The device name it was opened with, as the player gave it.
    var device: String { get }
    /// The format it plays: exactly what was asked (a fake grants every configuration).
    var negotiated: OutputFormat { get }
    /// What was heard, interleaved, from `startedAt` on.
    var heard: [Float] { get }
    /// Clock tick at which the device first started playing.
    var startedAt: Int64? { get }
    /// From this clock time on, every call fails as a lost device does.
    var lostAt: Double { get set }
}

/// A pull device on a virtual clock (see `FakeAudioBackend`), as PipeWire's stream works:
/// once started, every period the device calls the render and plays what it got over the
/// next period. Its "thread" is the one that waits on it (the player's render thread), so
/// the clock and the test's actions stay on one thread, as with the push fake.
///
/// Thread: as `VirtualClock`.
public final class FakePullOutput: PullOutput, FakeDevice, @unchecked Sendable {
    public let device: String
    public let negotiated: OutputFormat
    public let xrunCount = 0
    public private(set) var heard: [Float] = []
    public private(set) var startedAt: Int64?
    public var lostAt: Double = .infinity
    private let clock: VirtualClock
    private var render: PullRender?
    private let block: UnsafeMutableBufferPointer<Float>
    private var closed = false

    init(device: String, configuration: OutputConfiguration, clock: VirtualClock) {
        self.device = device
        self.clock = clock
        negotiated = OutputFormat(granting: configuration)
        block = .allocate(capacity: configuration.periodFrames * configuration.channelCount)
        block.initialize(repeating: 0)
    }

    deinit { block.deallocate() }

    private func check(_ operation: String) throws(AudioDeviceError) {
        if closed { throw AudioDeviceError(.failed, device: device, operation: operation, code: 9, detail: "closed") }
        if clock.seconds >= lostAt {
            throw AudioDeviceError(.disconnected, device: device, operation: operation, code: 19, detail: "the fake device was unplugged")
        }
    }

    public func start(render: @escaping PullRender) throws(AudioDeviceError) {
        try check("start")
        self.render = render
        if startedAt == nil { startedAt = clock.frame }
    }

    /// One device cycle: the callback for a period, then the period played out on the clock.
    public func wait(extraDescriptor: Int32, timeoutMilliseconds: Int32) throws(AudioDeviceError) -> OutputWaitResult {
        try check("wait")
        if EventFD.isReadable(extraDescriptor) { return .wakeup }
        guard let render else { return .timeout }
        render(block, negotiated.periodFrames)
        heard += block
        let woken = clock.advance(to: clock.frame + Int64(negotiated.periodFrames)) { EventFD.isReadable(extraDescriptor) }
        return woken || EventFD.isReadable(extraDescriptor) ? .wakeup : .ready
    }

    /// What a callback renders is heard over the period after it.
    public func delayFrames() -> Int? { negotiated.periodFrames }

    public func close() {
        closed = true
        render = nil
    }
}

/// A sound device on a virtual clock (see `FakeAudioBackend`): `EmulatedDeviceBuffer` (a
/// buffer of `negotiated.bufferFrames`, started when full or by `start()`, played out by the
/// clock; running dry is an underrun, recovered and counted by the next `availableFrames`
/// or write) with the frames it holds, so what was heard is kept: written frames, and
/// silence while the device had run dry (as a real device plays).
///
/// Thread: as `VirtualClock`.
public final class FakeAudioOutput: AudioOutput, FakeDevice, @unchecked Sendable {
    public let device: String
    public let negotiated: OutputFormat
    public var xrunCount: Int { buffer.xrunCount }
    /// What was heard, interleaved, from `startedAt` on: written frames, and silence while the
    /// device had run dry.
    public private(set) var heard: [Float] = []
    /// Clock tick at which the device first started playing.
    public var startedAt: Int64? { buffer.startedAt }
    /// From this clock time on, every call fails as a lost device does.
    public var lostAt: Double = .infinity

    private var buffer: EmulatedDeviceBuffer
    private let clock: VirtualClock
    /// The samples of `buffer`'s queued frames, from `queueHead` on.
    private var queue: [Float] = []
    private var queueHead = 0

    init(device: String, configuration: OutputConfiguration, clock: VirtualClock) {
        self.device = device
        self.clock = clock
        negotiated = OutputFormat(granting: configuration)
        buffer = EmulatedDeviceBuffer(bufferFrames: negotiated.bufferFrames, periodFrames: negotiated.periodFrames)
    }

    private var channels: Int { negotiated.channelCount }

    /// Plays what the clock has reached since the last call.
    private func catchUp() {
        let (played, silence) = buffer.advance(to: clock.frame)
        if played > 0 {
            heard += queue[queueHead..<(queueHead + played * channels)]
            queueHead += played * channels
            if queueHead > 1 << 16 { queue.removeFirst(queueHead); queueHead = 0 }
        }
        if silence > 0 { heard += [Float](repeating: 0, count: silence * channels) }
    }

    private func check(_ operation: String) throws(AudioDeviceError) {
        catchUp()
        if buffer.state == .closed {
            throw AudioDeviceError(.failed, device: device, operation: operation, code: 9, detail: "closed")
        }
        if clock.seconds >= lostAt {
            throw AudioDeviceError(.disconnected, device: device, operation: operation, code: 19, detail: "the fake device was unplugged")
        }
    }

    /// An underrun found: counted and recovered (the stream prepared again, empty).
    private func recoverIfUnderrun() -> Bool {
        guard buffer.recoverIfUnderrun() else { return false }
        queue.removeAll(keepingCapacity: true)
        queueHead = 0
        return true
    }

    public func availableFrames() throws(AudioDeviceError) -> Int {
        try check("avail")
        _ = recoverIfUnderrun()
        return buffer.availableFrames
    }

    /// After an underrun, the write that finds it recovers and takes nothing (as
    /// `PCMOutput.writeAvailable` does after `snd_pcm_recover`).
    public func writeAvailable(_ samples: UnsafeBufferPointer<Float>, frameCount: Int) throws(AudioDeviceError) -> Int {
        try check("write")
        if recoverIfUnderrun() { return 0 }
        let n = buffer.write(frameCount, now: clock.frame)
        queue += samples[0..<(n * channels)]
        return n
    }

    public func start() throws(AudioDeviceError) {
        try check("start")
        buffer.start(now: clock.frame)
    }

    public func wait(extraDescriptor: Int32, timeoutMilliseconds: Int32) throws(AudioDeviceError) -> OutputWaitResult {
        try check("poll")
        if EventFD.isReadable(extraDescriptor) { return .wakeup }
        if buffer.isReady { return .ready }
        let timeout = Int64(timeoutMilliseconds) * Int64(clock.rate) / 1000
        let target = buffer.state == .running
            ? clock.frame + Int64(min(buffer.framesUntilPeriodRoom, Int(timeout)))
            : clock.frame + timeout
        if clock.advance(to: target, interrupted: { EventFD.isReadable(extraDescriptor) }) { return .wakeup }
        if EventFD.isReadable(extraDescriptor) { return .wakeup }
        return buffer.state == .running || buffer.state == .underrun ? .ready : .timeout
    }

    public func delayFrames() -> Int? {
        catchUp()
        return buffer.delayFrames
    }

    public func close() {
        catchUp()
        buffer.close()
        queue.removeAll()
        queueHead = 0
    }
}
