import CabinAudio
import CabinIO
import CabinOutput
import CabinPlayback
import CabinSession
import CabinTestSupport
import Foundation
import Testing

/// Live playback through a real PipeWire (a private `pipewire` and `wireplumber` with a null
/// sink, `PipeWireDaemon`): the pull driver in `pw_stream`'s real-time callback, what reached
/// the sink recorded from its monitor by `pw-record`.
@Suite(.serialized, .enabled(if: PipeWireDaemon.problem == nil, Comment(rawValue: PipeWireDaemon.problem ?? "")))
struct PipeWirePlaybackTests {
    static func compile(seconds: Int) throws -> CompiledSession {
        // LivePlayerTests' session (noises, a tone, a speed ramp), `seconds` long.
        let doc = try #require(SessionReader.read(LivePlayerTests.json(seconds: seconds), file: "pipewire.json").document)
        return SessionCompiler.compile(doc, sounds: ResolvedSounds(), sampleRate: 48000, maxBlockFrames: 1024)
    }

    static func player(_ compiled: CompiledSession, on daemon: PipeWireDaemon,
                       target: String = PipeWireDaemon.sinkName) throws -> LivePlayer {
        // A quantum of 1024 frames (21 ms): room for a loaded 2-core machine's hiccups.
        var options = LivePlayer.Options(device: target, configuration: OutputConfiguration(periodFrames: 1024))
        options.backend = PipeWireBackend(remote: daemon.socketPath)
        return try LivePlayer(session: compiled, options: options)
    }

    /// Plays to the end, collecting events; returns (events, wall seconds).
    static func play(_ player: LivePlayer, during: (Double) -> Void = { _ in }) throws -> ([PlayerEvent], Double) {
        try LivePlayerTests.playAlone(player, during: during)
    }

    static func offline(_ compiled: CompiledSession, frames: Int) -> [Float] {
        let runner = SessionRunner(compiled)
        var samples = [Float](repeating: 0, count: 2 * frames)
        _ = samples.withUnsafeMutableBufferPointer { runner.render(into: $0, frameCount: frames) }
        return samples
    }

    @Test func aSessionSoundsAsItsOfflineRender() throws {
        let daemon = try PipeWireDaemon()
        defer { daemon.stop() }
        let dir = try TestEnvironment.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("heard.wav").path
        let compiled = try Self.compile(seconds: 4)
        let recorder = try daemon.record(into: path)
        let (events, wall) = try Self.play(try Self.player(compiled, on: daemon))
        let heard = try daemon.stopRecording(recorder, path: path)

        #expect(abs(wall - 4) < 0.5, "4 s took \(wall) s")
        #expect(events.compactMap { if case .mark(let n, _, _) = $0 { n } else { nil } } == ["drive", "slow", "arrival"])
        #expect(events.last.map { if case .ended(.finished, _, _) = $0 { true } else { false } } == true, "\(events)")
        let started = events.compactMap { if case .started(let i) = $0 { i } else { nil } }.first
        #expect(started?.device == PipeWireDaemon.sinkName && started?.format == .float32, "\(String(describing: started))")

        // The recording starts before the stream: align the render on it (the onset, then
        // the lag within ±256 frames whose first 0.2 s differ least), then compare it all.
        let offline = Self.offline(compiled, frames: 4 * 48000)
        let lag = try #require(SignalAnalysis.alignment(of: offline, in: heard, channels: 2), "no session in the recording")
        let comparison = Self.compare(heard: Array(heard[(2 * lag)...]), offline: offline)
        // F32 at the graph's rate with unit volumes: PipeWire converts nothing, so the sink
        // gets the render's samples bit for bit. The one exception is a graph cycle PipeWire
        // lost on this shared 2-core machine (the sink then plays a quantum of silence in
        // place of one of the session's): every other frame must be the render's.
        #expect(comparison.mismatch == nil, "the sink's samples differ from the render: \(comparison.mismatch ?? "")")
        #expect(comparison.compared >= 4 * 48000 - 2048, "heard \(comparison.compared) frames of the session")
        #expect(comparison.lostCycles <= 2, "\(comparison.lostCycles) graph cycles lost")
    }

    /// Compares what the sink heard with the render, frame by frame and bit for bit, except
    /// that a run of exact silence in the recording may stand for the same number of the
    /// render's frames (a graph cycle lost: the sink played silence, those frames were
    /// never heard). Returns the frames compared, the cycles lost, and the first frame
    /// that is neither.
    static func compare(heard: [Float], offline: [Float]) -> (compared: Int, lostCycles: Int, mismatch: String?) {
        let frames = min(heard.count, offline.count) / 2
        var i = 0, lost = 0
        func same(_ f: Int) -> Bool { heard[2 * f] == offline[2 * f] && heard[2 * f + 1] == offline[2 * f + 1] }
        while i < frames {
            if same(i) { i += 1; continue }
            var silent = i
            while silent < frames && heard[2 * silent] == 0 && heard[2 * silent + 1] == 0 { silent += 1 }
            let resumes = silent < frames ? min(frames, silent + 256) : frames
            guard silent > i, (silent..<resumes).allSatisfy(same) else {
                return (i, lost, "frame \(i) (\(Double(i) / 48000) s): heard \(heard[2 * i]), rendered \(offline[2 * i])")
            }
            lost += 1
            i = silent
        }
        return (frames, lost, nil)
    }

    /// Issue 29: the render stalled 300 ms mid-play (as a preempted or overloaded thread
    /// would, inside PipeWire's callback): the graph went on without the stream (the sink
    /// played silence), the stream sees the missed cycles in the graph's clock and reports
    /// one xrun with about the time lost, and the session skips that time as the ALSA path
    /// does. What reached the sink is the render bit for bit before the gap and, after it,
    /// the render where the wall clock is (the same alignment as before the gap: nothing
    /// replayed, nothing late); the session ends on time.
    @Test func aStalledRenderIsAnXrunAndTheSessionSkipsTheLostTime() throws {
        let daemon = try PipeWireDaemon()
        defer { daemon.stop() }
        let dir = try TestEnvironment.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("stalled.wav").path
        let compiled = try Self.compile(seconds: 6)
        let player = try Self.player(compiled, on: daemon)
        let recorder = try daemon.record(into: path)
        var stalled = false
        let (events, wall) = try Self.play(player) { t in
            if t > 2 && !stalled { stalled = true; player.injectStall(milliseconds: 300) }
        }
        let heard = try daemon.stopRecording(recorder, path: path)

        let xruns = events.compactMap { if case .xrun(let count, _, let lost) = $0 { (count, lost) } else { nil } }
        // The stall is one xrun that skipped about its length (whole quanta of 21 ms: the
        // cycles that started while the callback slept), and nothing skipped more.
        #expect(xruns.filter { $0.1 > 0.25 && $0.1 < 0.36 }.count == 1, "the stall skipped about its length: \(xruns)")
        #expect(xruns.allSatisfy { $0.1 < 0.36 }, "\(xruns)")
        #expect(player.status.lostSeconds > 0.25 && player.status.lostSeconds < 0.36 + 0.05 * Double(xruns.count - 1),
                "status: \(player.status)")
        #expect(abs(wall - 6) < 0.5, "6 s took \(wall) s")
        #expect(events.last.map { if case .ended(.finished, _, let n) = $0 { n >= 1 } else { false } } == true, "\(events)")

        let offline = Self.offline(compiled, frames: 6 * 48000)
        let lag = try #require(SignalAnalysis.alignment(of: offline, in: heard, channels: 2), "no session in the recording")
        let aligned = Array(heard[(2 * lag)...])
        // Before the gap: the render, bit for bit, up to about the stall (2 s after the start).
        let before = Self.compare(heard: aligned, offline: offline)
        let gapStart = before.compared
        #expect(before.mismatch != nil, "no gap in the recording")
        #expect(gapStart > 48000 * 17 / 10 && gapStart < 48000 * 26 / 10, "the gap began at \(Double(gapStart) / 48000) s")
        // After it, at the same alignment: the session where the wall clock is. It resumes
        // within the stall and a few quanta (the buffer rendered before the stall plays late,
        // after the silence: the one quantum heard out of place).
        let frames = min(aligned.count, offline.count) / 2
        func same(_ f: Int) -> Bool {
            aligned[2 * f] == offline[2 * f] && aligned[2 * f + 1] == offline[2 * f + 1] && offline[2 * f] != 0
        }
        func resumesAt(_ f: Int) -> Bool { f + 1024 < frames && (f..<(f + 1024)).allSatisfy(same) }
        let resumes: Int? = (gapStart..<frames).first(where: resumesAt)
        let resumed = try #require(resumes, "the session never came back at the wall clock's place")
        #expect(resumed - gapStart < 48000 * 3 / 10 + 4 * 1024, "the gap lasted \(Double(resumed - gapStart) / 48000) s")
        let after = Self.compare(heard: Array(aligned[(2 * resumed)...]), offline: Array(offline[(2 * resumed)...]))
        let afterMismatch = after.mismatch ?? ""
        #expect(after.mismatch == nil, "after the gap: \(afterMismatch)")
        #expect(resumed + after.compared >= 6 * 48000 - 2048, "heard \(after.compared) frames after the gap")
        #expect(before.lostCycles + after.lostCycles <= 2, "\(before.lostCycles + after.lostCycles) other graph cycles lost")
    }

    /// Issue 29.3: the latency changed while playing on PipeWire. The stream's `node.latency`
    /// moves and the graph's quantum follows: status's latency (the graph's delay to the sink,
    /// 0 for a null sink, and what is queued, plus the block the callbacks ask for) goes from
    /// the daemon's largest quantum (2,048 frames, 42.7 ms: relaxed's 3,072 rounded) to low's
    /// 256 frames (5.3 ms) and back, each change a `latency` event.
    ///
    /// (Low for a second only: at a 256-frame quantum a loaded 2-core machine can underrun,
    /// and a late cycle there is not always plain silence in the recording.)
    ///
    /// What reached the sink is the render bit for bit, but for one thing PipeWire 0.3.65
    /// does at a smaller quantum (to every stream, whoever lowers it): the cycle in which the
    /// quantum shrinks plays only the new quantum of the buffer the stream rendered at the
    /// old one, and the rest (here at most 2,048 − 256 frames, 37 ms) is never heard; the
    /// session skips ahead by that much, once. Going back up is seamless. The callbacks'
    /// clock (`pw_time.ticks`) is continuous through both changes, so nothing in the stream
    /// itself shows the skip.
    @Test func theLatencyChangesWhilePlayingAndTheSoundSkipsOnlyWhereTheQuantumShrinks() throws {
        let daemon = try PipeWireDaemon()
        defer { daemon.stop() }
        let dir = try TestEnvironment.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("heard.wav").path
        // Low for a second only: a 256-frame quantum on a loaded 2-core machine can underrun.
        let compiled = try Self.compile(seconds: 6)
        var options = LivePlayer.Options(device: PipeWireDaemon.sinkName, configuration: OutputLatency.relaxed.configuration())
        options.backend = PipeWireBackend(remote: daemon.socketPath)
        let player = try LivePlayer(session: compiled, options: options)
        let recorder = try daemon.record(into: path)
        var relaxed: [Double] = [], low: [Double] = [], back: [Double] = []
        var lowered = false, raised = false
        let (events, wall) = try Self.play(player) { t in
            if t > 1 && t < 2.8 { relaxed.append(player.status.latencyMilliseconds) }
            if t > 3 && !lowered { lowered = true; try? player.setLatency(.low) }
            if t > 3.4 && t < 3.9 { low.append(player.status.latencyMilliseconds) }
            if t > 4 && !raised { raised = true; try? player.setLatency(.relaxed) }
            if t > 4.6 && t < 5.6 { back.append(player.status.latencyMilliseconds) }
        }
        let heard = try daemon.stopRecording(recorder, path: path)

        #expect(abs(wall - 6) < 0.5, "6 s took \(wall) s")
        let changes = events.compactMap { if case .latencyChanged(let l, let p, let b) = $0 { "\(l.rawValue) \(p)/\(b)" } else { nil } }
        #expect(changes == ["low 256/768", "relaxed 3072/6144"], "\(changes)")
        let median = { (x: [Double]) in x.isEmpty ? .nan : x.sorted()[x.count / 2] }
        #expect(median(relaxed) > 40 && median(low) < 10 && median(back) > 40,
                "latency relaxed \(median(relaxed)) ms, low \(median(low)) ms, relaxed again \(median(back)) ms")
        #expect(events.last.map { if case .ended(.finished, _, _) = $0 { true } else { false } } == true)

        let offline = Self.offline(compiled, frames: 6 * 48000)
        let lag = try #require(SignalAnalysis.alignment(of: offline, in: heard, channels: 2), "no session in the recording")
        let aligned = Array(heard[(2 * lag)...])
        let before = Self.compare(heard: aligned, offline: offline)
        // The first difference is where the quantum shrank (asked at 3 s of wall clock, a
        // little less of session time), and only a skip ahead of at most 1,792 frames.
        let at = before.compared
        #expect(before.mismatch != nil && Double(at) / 48000 > 2.5 && Double(at) / 48000 < 3.5,
                "first difference at \(Double(at) / 48000) s: \(before.mismatch ?? "none")")
        let skip = (1...1792).first { k in
            at + k + 1024 <= offline.count / 2 && at + 1024 <= aligned.count / 2
                && (0..<1024).allSatisfy { f in aligned[2 * (at + f)] == offline[2 * (at + k + f)] && aligned[2 * (at + f) + 1] == offline[2 * (at + k + f) + 1] }
        }
        let skipped = try #require(skip, "after \(Double(at) / 48000) s the sink plays no part of the render within 1,792 frames ahead")
        let after = Self.compare(heard: Array(aligned[(2 * at)...]), offline: Array(offline[(2 * (at + skipped))...]))
        #expect(after.mismatch == nil, "after the skip of \(skipped) frames: \(after.mismatch ?? "")")
        #expect(at + after.compared >= 6 * 48000 - 4096 - skipped, "heard \(at + after.compared) frames of the session")
        #expect(before.lostCycles + after.lostCycles <= 2, "\(before.lostCycles + after.lostCycles) graph cycles lost")
    }

    /// Issue 29.3: automatic latency on PipeWire follows the needs that last (an app's) but
    /// not those that come and go (an interaction): each would cost a skip where the quantum
    /// shrinks (`LatencyNeed.transient`).
    @Test func anAutomaticLatencyOnPipeWireFollowsOnlyTheNeedsThatLast() throws {
        let daemon = try PipeWireDaemon()
        defer { daemon.stop() }
        var options = LivePlayer.Options(device: PipeWireDaemon.sinkName, configuration: OutputLatency.relaxed.configuration())
        options.backend = PipeWireBackend(remote: daemon.socketPath)
        options.automaticLatency = true
        let player = try LivePlayer(session: try Self.compile(seconds: 4), options: options)
        var needs: Set<LatencyNeed> = []
        var interacted = false, declared = false, withdrawn = false
        let (events, _) = try Self.play(player) { t in
            if t > 0.8 && !interacted { interacted = true; player.noteInteraction(); needs = player.latencyNeeds }
            if t > 1.6 && !declared { declared = true; player.setLatencyNeed(.app, true) }
            if t > 2.6 && !withdrawn { withdrawn = true; player.setLatencyNeed(.app, false) }
        }
        #expect(needs == [.interaction])
        let changes = events.compactMap { if case .latencyChanged(let l, _, _) = $0 { l.rawValue } else { nil } }
        #expect(changes == ["low", "relaxed"], "\(events)")
    }

    @Test func pauseAndSeekPlayOnTheSessionClock() throws {
        let daemon = try PipeWireDaemon()
        defer { daemon.stop() }
        let player = try Self.player(try Self.compile(seconds: 6), on: daemon)
        var paused = false, resumed = false, sought = false
        let (events, wall) = try Self.play(player) { t in
            if t > 1 && !paused { paused = true; player.pause() }
            if t > 2 && !resumed { resumed = true; player.resume() }
            if t > 2.5 && !sought { sought = true; player.seek(by: 2) }
        }
        #expect(events.contains { if case .paused = $0 { true } else { false } })
        #expect(events.contains { if case .resumed = $0 { true } else { false } })
        #expect(events.contains { if case .seeked = $0 { true } else { false } })
        #expect(events.last.map { if case .ended(.finished, _, _) = $0 { true } else { false } } == true, "\(events)")
        // 6 s, ≈ 1 s paused (less the fade, which plays), 2 s skipped: ≈ 5 s.
        #expect(wall > 4.5 && wall < 5.6, "took \(wall) s")
    }

    @Test func anUnknownSinkIsOneLine() throws {
        let daemon = try PipeWireDaemon()
        defer { daemon.stop() }
        let error = #expect(throws: AudioDeviceError.self) {
            _ = try Self.player(try Self.compile(seconds: 2), on: daemon, target: "no-such-sink")
        }
        #expect(error?.kind == .notFound)
        #expect(error?.description == "audio device \"pipewire:no-such-sink\": not found (target.object: no PipeWire sink has this node.name); check the name against the machine's playback devices")
    }

    @Test func theDaemonKilledAndRestartedMidPlayIsReportedAndPlaysOn() throws {
        let daemon = try PipeWireDaemon()
        defer { daemon.stop() }
        let dir = try TestEnvironment.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("after.wav").path
        let player = try Self.player(try Self.compile(seconds: 8), on: daemon)
        var killed = false, restarted = false
        var recorder: Process?
        let (events, wall) = try Self.play(player) { t in
            if t > 2 && !killed { killed = true; daemon.kill() }
            if t > 3 && !restarted {
                restarted = true
                try? daemon.start()
                recorder = try? daemon.record(into: path)
            }
        }
        let errors = events.compactMap { if case .deviceError(let m) = $0 { m } else { nil } }
        #expect(errors.first?.hasPrefix("audio device \"pipewire:\(PipeWireDaemon.sinkName)\": disconnected (pw_core: ") == true, "\(errors)")
        #expect(events.contains { if case .deviceRestored = $0 { true } else { false } }, "\(events)")
        #expect(events.last.map { if case .ended(.finished, _, _) = $0 { true } else { false } } == true, "\(events)")
        // The session kept the wall clock through the outage: it ends on time.
        #expect(abs(wall - 8) < 0.8, "8 s took \(wall) s")
        let heard = try daemon.stopRecording(try #require(recorder), path: path)
        #expect(SignalAnalysis.peak(heard) > 0.01, "nothing reached the sink after the restart")
    }
}
