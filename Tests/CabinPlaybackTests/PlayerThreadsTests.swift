import CabinAudio
import CabinIO
import CabinOutput
import CabinPlayback
import CabinTesting
import CabinSession
import Dispatch
import Foundation
import Synchronization
import Testing

/// Issue 28.2 and 28.5: a player that apps drive from several threads and tasks. Control
/// calls from many threads at once are serialised (no event lost or doubled, nothing torn);
/// a player plays once (`start` twice, or after the end, is an error); `stop` asked again
/// while its fade runs does not restart it; events come as an `AsyncSequence`, print as
/// one line for people and encode as JSON and back.
@Suite struct PlayerThreadsTests {
    static let rate = TransportTests.rate

    static func player(pulls: Bool = false, fade: Double = 0.05) throws -> (LivePlayer, FakeAudioBackend) {
        let run = try TransportTests.makeRun(fade: fade, pulls: pulls)
        return (run.player, run.backend)
    }

    @Test func startTwiceOrAfterTheEndIsAnErrorAndChangesNothing() throws {
        let (player, backend) = try Self.player()
        // The render thread held at 10 ms of the virtual clock: the session is playing while
        // the second start is asked for.
        let gate = DispatchSemaphore(value: 0)
        backend.clock.at(0.01) { gate.wait() }
        try player.start()
        defer { gate.signal() }
        do {
            try player.start()
            Issue.record("a second start was accepted")
        } catch {
            guard case .alreadyStarted = error else { Issue.record("\(error)"); return }
            #expect("\(error)" == "the player has already started")
        }
        gate.signal()
        player.waitUntilFinished()
        #expect(player.status.state == .finished)
        do {
            try player.start()
            Issue.record("a second start after the end was accepted")
        } catch {
            guard case .ended = error else { Issue.record("\(error)"); return }
        }
        // Nothing new happened: no device error, no second start, one end.
        let events = player.poll()
        #expect(events.filter { if case .started = $0 { true } else { false } }.count == 1, "\(events)")
        #expect(events.filter { if case .ended = $0 { true } else { false } }.count == 1, "\(events)")
        #expect(!events.contains { if case .deviceError = $0 { true } else { false } }, "\(events)")
    }

    @Test func startAfterStopNowIsAnErrorAndWaitsReturnAtOnce() throws {
        let (player, _) = try Self.player()
        player.stopNow()
        do {
            try player.start()
            Issue.record("start after stopNow was accepted")
        } catch {
            guard case .ended = error else { Issue.record("\(error)"); return }
        }
        // Never started: the waits do not block.
        #expect(!player.waitUntilStarted(timeout: 10))
        player.waitUntilFinished()
    }

    /// A caller that stops until the session ends (a key held down, a loop): the first fade
    /// ends it, on time, as stopped; before, every stop restarted the fade and it never ended.
    @Test(arguments: [false, true]) func stopAskedAgainDuringItsFadeEndsWhenTheFirstFadeDoes(pulls: Bool) throws {
        let (player, backend) = try Self.player(pulls: pulls, fade: 0.1)
        for tick in 0..<100 { backend.clock.at(0.5 + Double(tick) * 0.002) { player.stop() } }
        let events = try TransportTests.play(TransportTests.Run(backend: backend, player: player,
                                                                compiled: player.session, offline: []))
        #expect(events.contains { if case .ended(.stopped, _, _) = $0 { true } else { false } }, "\(events)")
        // The fade (0.1 s), what was queued and the drain: well before the 2 s end.
        let buffer = Double(TransportTests.buffer) / Double(Self.rate)
        #expect(backend.clock.seconds <= 0.5 + 0.1 + 3 * buffer + 0.01, "ended at \(backend.clock.seconds)")
    }

    /// Eight threads change volumes, parameters and read status and events at once while the
    /// session plays: every volume change is reported exactly once, and the volumes read at
    /// the end are the last ones each thread set.
    @Test func controlCallsFromManyThreadsAtOnceAreSerialised() throws {
        let (player, _) = try Self.player()
        try player.start()
        let threads = 8, changes = 400
        let collected = Mutex<[PlayerEvent]>([])
        DispatchQueue.concurrentPerform(iterations: threads) { t in
            for k in 0..<changes {
                if t % 2 == 0 {
                    try? player.setVolume(Decibels(-Double(k % 40)), bus: "radio")
                } else {
                    player.setMuted(k % 2 == 0)
                }
                _ = player.status
                _ = player.parameterValues
                if k % 16 == 0 { let e = player.poll(); collected.withLock { $0 += e } }
            }
        }
        player.waitUntilFinished()
        let all = collected.withLock { $0 } + player.poll()
        let volumeEvents = all.filter { if case .volumeChanged = $0 { true } else { false } }
        #expect(volumeEvents.count == threads * changes, "\(volumeEvents.count) volume events")
        // Every thread's last call was k = changes - 1: radio at −(399 % 40) dB, mute false.
        #expect(player.volume.buses["radio"] == Decibels(-Double((changes - 1) % 40)))
        #expect(player.volume.muted == false)
        #expect(all.filter { if case .ended = $0 { true } else { false } }.count == 1)
    }

    /// `for await event in player.events` gets every event in order and ends after the end.
    @Test func eventsAsAnAsyncSequenceEndAfterTheEnd() async throws {
        let (player, _) = try Self.player()
        try player.start()
        var seen: [PlayerEvent] = []
        for await event in player.events(every: .milliseconds(5)) { seen.append(event) }
        guard case .started = seen.first else { Issue.record("first: \(seen)"); return }
        guard case .ended(.finished, _, _) = seen.last else { Issue.record("last: \(seen)"); return }
        #expect(seen.compactMap { if case .mark(let n, _, _) = $0 { n } else { nil } } == ["go", "late"])
    }

    /// A task that stops listening (cancelled) ends its loop without waiting for the session.
    @Test func cancellingTheTaskEndsTheSequence() async throws {
        let (player, _) = try Self.player()
        let task = Task { for await _ in player.events(every: .milliseconds(5)) {} }
        task.cancel()
        await task.value
        #expect(!player.isFinished)
    }

    static let everyKind: [PlayerEvent] = [
        .started(PlaybackInfo(device: "none", sampleRate: 48000, periodFrames: 256, bufferFrames: 768, format: .s16,
                              scheduling: "normal (--no-realtime)", isRealtime: false, silentReason: "the device is \"none\"")),
        .started(PlaybackInfo(device: "hw:0", sampleRate: 44100, periodFrames: 64, bufferFrames: 192, format: .float32,
                              scheduling: "SCHED_FIFO 70", isRealtime: true, silentReason: nil)),
        .mark(name: "rest", time: 1500, title: "rest stop"), .mark(name: "go", time: 0, title: nil),
        .xrun(count: 3, time: 12.5, lostSeconds: 0.0053), .deviceError("audio device \"default\": lost"),
        .deviceRestored(time: 14), .paused(time: 1), .resumed(time: 2), .seeked(time: 3.25),
        .triggered(name: "leave-focus", time: 4), .volumeChanged(bus: "radio", decibels: -6, muted: false),
        .volumeChanged(bus: nil, decibels: -.infinity, muted: true), .ended(reason: .stopped, time: 9, xruns: 1),
        .radio(.buffering(url: "http://a/s", reason: "connecting")),
        .radio(.playing(url: "http://a/s", name: "Station", codec: "mp3", seconds: 0.8)),
        .radio(.playing(url: "http://a/s", name: nil, codec: "opus", seconds: 1)),
        .radio(.title(url: "http://a/s", title: "Song")), .radio(.reconnect(url: "http://a/s", attempt: 2, delay: 4, reason: "dropped")),
        .radio(.error(url: "http://a/s", message: "404")), .radio(.skipped(url: "file.mp3", message: "not a sound file")),
        .latencyChanged(latency: .low, periodFrames: 256, bufferFrames: 768),
    ]

    @Test func everyEventEncodesAsItsJSONLineAndDecodesBackEqual() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        for event in Self.everyKind {
            let data = try encoder.encode(event)
            let decoded = try JSONDecoder().decode(PlayerEvent.self, from: data)
            #expect(decoded == event, "\(String(decoding: data, as: UTF8.self))")
            // The same object `cabin play --json` prints (there with the session's title).
            if case .started = event { continue }
            #expect(String(decoding: data, as: UTF8.self) == event.jsonLine(title: "t"))
        }
        // What is not an event says which, in one error.
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(PlayerEvent.self, from: Data(#"{"event":"mark"}"#.utf8)) }
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(PlayerEvent.self, from: Data(#"{"event":"nope"}"#.utf8)) }
    }

    @Test func eventsPrintAsOneLineForPeopleWithNothingFromOutsideRaw() {
        for event in Self.everyKind {
            let line = "\(event)"
            #expect(!line.contains("\n") && !line.contains("PlaybackInfo(") && !line.contains("Optional("), "\(line)")
        }
        #expect("\(PlayerEvent.mark(name: "rest", time: 1500, title: "rest stop"))" == "mark rest at 1500.000 s (rest stop)")
        let hostile = PlayerEvent.radio(.title(url: "http://a/s", title: "Song \u{1B}]0;PWNED\u{07}\u{1B}[2J\nnext"))
        let line = "\(hostile)"
        #expect(!line.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }, "\(line.debugDescription)")
    }
}
