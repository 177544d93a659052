import CabinAudio
import CabinIO
import CabinOutput
import CabinPlayback
import CabinTesting
import CabinSession
import Testing

/// The live player's transport — pause and resume fades, seek with its fade and runner
/// swap, quit, underrun catch-up, a lost device reopened — on a fake output with a virtual
/// clock: tiny periods, exact times, no sound device and no real time.
@Suite struct TransportTests {
    static let rate = 8000
    static let period = 16
    static let periods = 3
    static var buffer: Int { period * periods }

    /// Two seconds of a 200 Hz sine: every frame is distinct within a cycle, so a match of
    /// a stretch of frames pins down which timeline frames they were.
    static let json = """
        { "cabin": 1, "title": "transport", "duration": "2s",
          "layers": { "tone": { "bus": "radio", "sound": "synth:sine?frequency=230", "gain": -12 } },
          "cues": [ { "at": 0, "start": "tone", "mark": "go" }, { "at": "1500ms", "mark": "late" } ] }
        """

    static func compile() throws -> CompiledSession {
        let result = SessionReader.read(json, file: "transport.json")
        let document = try #require(result.document, "\(result.diagnostics)")
        return SessionCompiler.compile(document, sounds: ResolvedSounds(), sampleRate: Double(rate), maxBlockFrames: period)
    }

    /// The session rendered offline, interleaved stereo (from `seconds` on: as a seek starts it).
    static func offline(_ compiled: CompiledSession, from seconds: Double = 0) -> [Float] {
        let compiled = seconds == 0 ? compiled : compiled.starting(at: FrameTime(frame(seconds)))
        let runner = SessionRunner(compiled)
        let frames = Int(compiled.durationFrames)
        var out = [Float](repeating: 0, count: 2 * frames)
        _ = out.withUnsafeMutableBufferPointer { runner.render(into: $0, frameCount: frames) }
        return out
    }

    struct Run {
        var backend: FakeAudioBackend
        var player: LivePlayer
        var compiled: CompiledSession
        var offline: [Float]
    }

    /// `pulls`: on a device that calls the player (the pull driver, as PipeWire plays)
    /// instead of one the player writes into (the push driver, as ALSA plays).
    static func makeRun(fade: Double = 0.05, pulls: Bool = false) throws -> Run {
        let compiled = try compile()
        let backend = FakeAudioBackend(rate: rate, pulls: pulls)
        var options = LivePlayer.Options(device: "fake", configuration: OutputConfiguration(
            sampleRate: rate, channelCount: 2, periodFrames: period, periodCount: periods))
        options.backend = backend
        options.realtime = false
        options.transportFade = fade
        let player = try LivePlayer(session: compiled, options: options)
        return Run(backend: backend, player: player, compiled: compiled, offline: offline(compiled))
    }

    /// Plays to the end on the virtual clock, polling events every 10 ms of it as a control
    /// loop does; returns the events.
    static func play(_ run: Run) throws -> [PlayerEvent] {
        let events = EventLog()
        for tick in 1...4000 { run.backend.clock.at(Double(tick) / 100) { events.all += run.player.poll() } }
        try run.player.start()
        run.player.waitUntilFinished()
        return events.all + run.player.poll()
    }

    /// Events gathered on the render thread's clock actions (read after the join).
    final class EventLog: @unchecked Sendable { var all: [PlayerEvent] = [] }

    /// Whether `heard[frames]` equals the offline render `shift` frames later, bit for bit.
    static func matches(_ heard: [Float], _ offline: [Float], frames: Range<Int>, shift: Int) -> Bool {
        frames.allSatisfy { f in
            let o = f + shift
            guard o >= 0, 2 * o + 1 < offline.count, 2 * f + 1 < heard.count else { return false }
            return heard[2 * f] == offline[2 * o] && heard[2 * f + 1] == offline[2 * o + 1]
        }
    }

    /// The shifts in `candidates` for which `frames` of what was heard are the offline render.
    static func shifts(_ heard: [Float], _ offline: [Float], frames: Range<Int>, in candidates: ClosedRange<Int>) -> [Int] {
        candidates.filter { matches(heard, offline, frames: frames, shift: $0) }
    }

    static func frame(_ seconds: Double) -> Int { Int(seconds * Double(rate)) }

    @Test(arguments: [false, true]) func playsTheOfflineRenderBitForBitAndEndsOnTime(pulls: Bool) throws {
        let run = try Self.makeRun(pulls: pulls)
        let events = try Self.play(run)
        let heard = run.backend.heard()
        let frames = Int(run.compiled.durationFrames)
        #expect(heard.count / 2 >= frames)
        #expect(Self.matches(heard, run.offline, frames: 0..<frames, shift: 0))
        #expect(events.compactMap { if case .mark(let n, _, _) = $0 { n } else { nil } } == ["go", "late"])
        #expect(events.contains { if case .ended(.finished, _, 0) = $0 { true } else { false } }, "\(events)")
        // Ends when the session and the buffer's worth of drain silence have played.
        #expect(abs(run.backend.clock.seconds - 2.0) <= Double(2 * Self.buffer + Self.period) / Double(Self.rate))
        #expect(run.player.status.position == 2.0)
    }

    @Test(arguments: [false, true]) func pauseFadesOutHoldsTheTimelineAndResumesWhereItStopped(pulls: Bool) throws {
        let run = try Self.makeRun(fade: 0.05, pulls: pulls)
        run.backend.clock.at(0.5) { run.player.pause() }
        run.backend.clock.at(1.0) { run.player.resume() }
        let events = try Self.play(run)
        let heard = run.backend.heard()
        let fade = Self.frame(0.05)

        // Untouched up to the request (what was queued when it came was already rendered).
        #expect(Self.matches(heard, run.offline, frames: 0..<Self.frame(0.5), shift: 0))
        // Silence between the end of the fade-out and the resume.
        let quiet = (Self.frame(0.5) + Self.buffer + fade)..<Self.frame(1.0)
        #expect(quiet.allSatisfy { heard[2 * $0] == 0 && heard[2 * $0 + 1] == 0 })
        // The fade-out takes `fade` frames: the level falls to silence, it does not cut. From
        // the first frame it touches (after what the device had queued: a buffer pushed, a
        // period pulled), the gain falls in dB, so the sine (−12 dBFS) stays above −80 dBFS
        // for 39 % of the fade (156 of 400 frames, pushed or pulled); a cut would leave none.
        let window = Self.frame(0.5)..<(Self.frame(0.5) + Self.buffer + fade)
        let touched = try #require(window.first { heard[2 * $0] != run.offline[2 * $0] })
        let loud = (touched..<window.upperBound).filter { abs(heard[2 * $0]) > 1e-4 }
        #expect(touched - Self.frame(0.5) <= (pulls ? Self.period : Self.buffer) + 1, "the fade starts at \(touched)")
        #expect(loud.count >= fade / 3, "the fade-out is audible for \(loud.count) frames")
        // After the fade-in, the timeline goes on where it stopped: the heard audio is the
        // offline render one paused span (0.5 s, give or take a buffer) earlier.
        let tail = (Self.frame(1.0) + Self.buffer + fade)..<Self.frame(2.2)
        let found = Self.shifts(heard, run.offline, frames: tail, in: -(Self.frame(0.5) + Self.buffer + fade)...(-Self.frame(0.5) + Self.buffer + fade))
        #expect(found.count == 1, "resumed audio is the session shifted by one pause: \(found)")
        #expect(events.contains { if case .paused = $0 { true } else { false } })
        #expect(events.contains { if case .resumed = $0 { true } else { false } })
        #expect(events.contains { if case .ended(.finished, _, _) = $0 { true } else { false } })
        // The whole session played: it ended one pause later on the clock.
        #expect(run.backend.clock.seconds > 2.45 && run.backend.clock.seconds < 2.6, "\(run.backend.clock.seconds)")
    }

    /// A seek to 1.5 s asked at 0.5 s: the listener hears 1.5 s plus the time since it was
    /// asked (the 30 ms fade, the wait for the next period and the output latency are not
    /// lost), so the session ends on time, a second early; the mark at 1.5 s is reached.
    @Test(arguments: [false, true]) func seekFadesAndSwapsToTheNewPosition(pulls: Bool) throws {
        let run = try Self.makeRun(pulls: pulls)
        run.backend.clock.at(0.5) { run.player.seek(to: 1.5) }
        let events = try Self.play(run)
        let heard = run.backend.heard()
        #expect(Self.matches(heard, run.offline, frames: 0..<Self.frame(0.5), shift: 0))
        // After the fade-out and the new runner's fade-in, the frame heard at 0.5 s + t is
        // the session's 1.5 s + t, bit for bit (0.5 s as the position was last published:
        // within a period).
        let fromSeek = Self.offline(run.compiled, from: 1.5)
        let after = (Self.frame(0.5) + Self.frame(0.03) + Self.buffer + Self.frame(0.15))..<Self.frame(0.95)
        let found = Self.shifts(heard, fromSeek, frames: after, in: -(Self.frame(0.5) + Self.period)...(-(Self.frame(0.5) - Self.period)))
        #expect(found.count == 1, "after the seek: \(found)")
        #expect(events.contains { if case .seeked(let t) = $0 { t == 1.5 } else { false } }, "\(events)")
        #expect(events.compactMap { if case .mark(let n, _, _) = $0 { n } else { nil } } == ["go", "late"])
        #expect(abs(run.backend.clock.seconds - 1.0) <= Double(2 * Self.buffer + Self.period) / Double(Self.rate),
                "the session ends a second early, on time: \(run.backend.clock.seconds)")
    }

    /// Auto-repeat: three presses of "forward" before the first seek has happened move
    /// three steps, not one step three times over; and the timeline stays on the wall
    /// clock: from the swap on, the frame heard at t is the session's t + 0.9 s exactly.
    @Test(arguments: [false, true]) func relativeSeeksInABurstAddUp(pulls: Bool) throws {
        let run = try Self.makeRun(pulls: pulls)
        run.backend.clock.at(0.2) { for _ in 0..<3 { run.player.seek(by: 0.3) } }
        let events = try Self.play(run)
        let seeks = events.compactMap { if case .seeked(let t) = $0 { t } else { nil } }
        #expect(seeks.count == 1, "\(events)")
        // From the position as last published: once a period, so within two periods of 0.2 s.
        #expect(abs((seeks.first ?? 0) - 1.1) <= 2 * Double(Self.period) / Double(Self.rate), "seeked to \(seeks)")
        // The seek went to T = c + 0.9 s, c the device clock it was asked at; the frame heard
        // at device frame d is the session's T + (d − c): a runner started at T, shifted by −c.
        let target = Int(((seeks.first ?? 0) * Double(Self.rate)).rounded())
        let fromSeek = Self.offline(run.compiled, from: Double(target) / Double(Self.rate))
        let after = (Self.frame(0.2) + Self.frame(0.03) + Self.buffer + Self.frame(0.15))..<Self.frame(0.8)
        #expect(Self.matches(run.backend.heard(), fromSeek, frames: after, shift: -(target - Self.frame(0.9))))
        #expect(abs(run.backend.clock.seconds - 1.1) <= Double(2 * Self.buffer + Self.period) / Double(Self.rate),
                "\(run.backend.clock.seconds)")
    }

    /// Issue 31.6: a relative seek of 0 is nothing (no fade, no swap, not a frame lost).
    @Test(arguments: [false, true]) func aSeekOfZeroIsNothing(pulls: Bool) throws {
        let run = try Self.makeRun(pulls: pulls)
        for t in [0.3, 0.6, 0.9, 1.2] { run.backend.clock.at(t) { run.player.seek(by: 0) } }
        let events = try Self.play(run)
        #expect(!events.contains { if case .seeked = $0 { true } else { false } }, "\(events)")
        #expect(Self.matches(run.backend.heard(), run.offline, frames: 0..<Int(run.compiled.durationFrames), shift: 0))
        #expect(abs(run.backend.clock.seconds - 2.0) <= Double(2 * Self.buffer + Self.period) / Double(Self.rate))
    }

    /// Issue 31.6: +0.5 s then −0.5 s comes back to the same moment: after the second
    /// swap the frame heard at t is the session's t, bit for bit, and it ends on time
    /// (before: each seek lost its fade and the latency).
    @Test(arguments: [false, true]) func forwardThenBackReturnsToTheSameMoment(pulls: Bool) throws {
        let run = try Self.makeRun(pulls: pulls)
        run.backend.clock.at(0.3) { run.player.seek(by: 0.5) }
        run.backend.clock.at(0.7) { run.player.seek(by: -0.5) }
        let events = try Self.play(run)
        let seeks = events.compactMap { if case .seeked(let t) = $0 { t } else { nil } }
        #expect(seeks.count == 2, "\(events)")
        // The second went to T, heard at device frame T: a runner started at T, shifted by −T.
        let target = Int(((seeks.last ?? 0) * Double(Self.rate)).rounded())
        let fromSeek = Self.offline(run.compiled, from: Double(target) / Double(Self.rate))
        let after = (Self.frame(0.7) + Self.frame(0.03) + Self.buffer + Self.frame(0.15))..<Self.frame(1.9)
        #expect(Self.matches(run.backend.heard(), fromSeek, frames: after, shift: -target))
        #expect(abs(run.backend.clock.seconds - 2.0) <= Double(2 * Self.buffer + Self.period) / Double(Self.rate),
                "\(run.backend.clock.seconds)")
    }

    /// Issue 31.6: eight seeks to where the listener is (`seek(to: status.position)`, as
    /// `cabin ctl seek TIME absolute` with the time status showed) lose nothing: the session
    /// ends on time (before: 20 seeks made a 20 s session end 0.9 s late); and status shows
    /// a seek's target at once, before it is heard.
    @Test(arguments: [false, true]) func seeksToWhereItIsLoseNothingAndStatusShowsTheTarget(pulls: Bool) throws {
        let run = try Self.makeRun(pulls: pulls)
        for k in 1...8 { run.backend.clock.at(0.2 * Double(k)) { run.player.seek(to: run.player.status.position) } }
        nonisolated(unsafe) var shown = -1.0
        run.backend.clock.at(0.25) {
            run.player.seek(to: 1.0)
            shown = run.player.status.position
            run.player.seek(to: 0.25)
        }
        _ = try Self.play(run)
        #expect(abs(shown - 1.0) <= 2 * Double(Self.period) / Double(Self.rate), "status after the seek: \(shown)")
        #expect(abs(run.backend.clock.seconds - 2.0) <= Double(2 * Self.buffer + Self.period) / Double(Self.rate),
                "\(run.backend.clock.seconds)")
    }

    @Test func anUnderrunIsCountedAndTheSessionSkipsTheLostTime() throws {
        let run = try Self.makeRun()
        run.backend.clock.stall(at: 0.5, for: 0.3)
        let events = try Self.play(run)
        let heard = run.backend.heard()
        let output = try #require(run.backend.current)
        #expect(output.xrunCount == 1)
        // Before: the session; then silence while the device ran dry.
        #expect(Self.matches(heard, run.offline, frames: 0..<Self.frame(0.5), shift: 0))
        let dry = (Self.frame(0.5) + Self.buffer)..<Self.frame(0.8)
        #expect(dry.allSatisfy { heard[2 * $0] == 0 })
        // After: the session where the wall clock is (the lost time skipped, not replayed).
        let after = (Self.frame(0.8) + Self.buffer)..<Self.frame(1.9)
        #expect(Self.matches(heard, run.offline, frames: after, shift: 0))
        let xrun = try #require(events.compactMap { if case .xrun(let n, _, let lost) = $0 { (n, lost) } else { nil } }.first)
        #expect(xrun.0 == 1)
        // Lost: the stall less what was queued when it began (one buffer at most).
        #expect(xrun.1 >= 0.3 - Double(Self.buffer) / Double(Self.rate) && xrun.1 <= 0.3, "lost \(xrun.1) s")
        #expect(events.contains { if case .ended(.finished, _, 1) = $0 { true } else { false } }, "\(events)")
        #expect(abs(run.backend.clock.seconds - 2.0) <= Double(2 * Self.buffer + Self.period) / Double(Self.rate))
    }

    @Test(arguments: [false, true]) func aLostDeviceIsReopenedAndTheSessionKeepsTime(pulls: Bool) throws {
        let run = try Self.makeRun(pulls: pulls)
        try #require(run.backend.opened.last).lostAt = 0.5
        run.backend.unavailableUntil = 1.2
        let events = try Self.play(run)
        let heard = run.backend.heard()
        // Backoff 0.25 s, then 0.5 s: the first open that can succeed is at 1.25 s.
        #expect(run.backend.opened.count == 2)
        #expect(run.backend.refusedOpens == 1)
        let reopened = try #require(run.backend.opened.last?.startedAt)
        #expect(Int(reopened) == Self.frame(1.25))
        #expect(events.contains { if case .deviceError(let text) = $0 { text.contains("unplugged") } else { false } }, "\(events)")
        // While it retries, the event says what failed, not "play again".
        #expect(!events.contains { if case .deviceError(let text) = $0 { text.contains("play again") } else { false } }, "\(events)")
        #expect(events.contains { if case .deviceRestored = $0 { true } else { false } })
        // The outage is skipped: after the reopen the session is where the clock is (give
        // or take what was queued in the lost device).
        let after = (Self.frame(1.25) + 1)..<Self.frame(1.9)
        let found = Self.shifts(heard, run.offline, frames: after, in: 0...Self.buffer)
        #expect(found.count == 1, "after the reopen: \(found)")
        #expect(events.contains { if case .ended(.finished, _, _) = $0 { true } else { false } })
        #expect(run.backend.clock.seconds < 2.1)
    }

    @Test(arguments: [false, true]) func aDeviceThatNeverComesBackEndsAsFailed(pulls: Bool) throws {
        let run = try Self.makeRun(pulls: pulls)
        try #require(run.backend.opened.last).lostAt = 0.5
        run.backend.unavailableUntil = .infinity
        let events = try Self.play(run)
        #expect(events.contains { if case .ended(.failed, _, _) = $0 { true } else { false } }, "\(events)")
        #expect(run.player.status.state == .failed)
        // It gave up after the reconnect timeout (30 s by default) of virtual time.
        #expect(run.backend.clock.seconds >= 30.5 && run.backend.clock.seconds < 33)
    }

    @Test(arguments: [false, true]) func quitFadesOutAndEndsAsStopped(pulls: Bool) throws {
        let run = try Self.makeRun(fade: 0.05, pulls: pulls)
        run.backend.clock.at(0.5) { run.player.stop() }
        let events = try Self.play(run)
        let heard = run.backend.heard()
        #expect(Self.matches(heard, run.offline, frames: 0..<Self.frame(0.5), shift: 0))
        let end = Self.frame(0.5) + Self.buffer + Self.frame(0.05)
        #expect((end..<(heard.count / 2)).allSatisfy { heard[2 * $0] == 0 })
        #expect(events.contains { if case .ended(.stopped, _, _) = $0 { true } else { false } }, "\(events)")
        #expect(run.backend.clock.seconds < 0.7)
    }
}
