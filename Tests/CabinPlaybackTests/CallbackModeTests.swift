import CabinAudio
import CabinIO
import CabinOutput
import CabinPlayback
import CabinTesting
import CabinSession
import Testing

/// Issue 28.4: an app that owns its audio callback drives Cabin's render with the whole
/// transport. The same timeline with the same control calls — a bus volume, a parameter,
/// pause and resume, a live event, a seek, mute — played by the player on a pull device
/// (`FakeAudioBackend(pulls: true)`, as PipeWire plays) and asked for block by block through
/// `CallbackOutput` from the test's own "audio callback" loop gives the same samples, bit for
/// bit, and the same events.
@Suite struct CallbackModeTests {
    static let rate = 8000
    static let block = 16

    static let json = """
        { "cabin": 1, "title": "callback", "duration": "3s",
          "parameters": { "speed": { "value": 62, "min": 0, "max": 80 } },
          "focus": { "away": 20, "fall": "300ms", "rise": "300ms" },
          "layers": {
            "tone": { "bus": "radio", "sound": "synth:sine?frequency=230", "gain": -12 },
            "engine": { "bus": "engine", "sound": "synth:sine?frequency=110", "gain": -12, "loop": true,
                        "gainMap": { "parameter": "speed", "map": [[0, -18], [62, 0]] } } },
          "cues": [ { "at": 0, "start": ["tone", "engine"], "mark": "go" }, { "at": "2500ms", "mark": "late" } ] }
        """

    static func compile() throws -> CompiledSession {
        let result = SessionReader.read(json, file: "callback.json")
        let document = try #require(result.document, "\(result.diagnostics)")
        return SessionCompiler.compile(document, sounds: ResolvedSounds(), sampleRate: Double(rate), maxBlockFrames: block)
    }

    static func options() -> LivePlayer.Options {
        var options = LivePlayer.Options(device: "fake", configuration: OutputConfiguration(
            sampleRate: rate, channelCount: 2, periodFrames: block, periodCount: 1))
        options.realtime = false
        options.transportFade = 0.05
        return options
    }

    /// What the app does, and when (seconds on the device's clock).
    static let script: [(Double, @Sendable (LivePlayer) -> Void)] = [
        (0.2, { try? $0.setVolume(Decibels(-6), bus: "radio") }),
        (0.4, { $0.setParameter("speed", to: 20) }),
        (0.6, { $0.pause() }),
        (0.9, { $0.resume() }),
        (1.2, { try? $0.trigger("leave-focus") }),
        (1.5, { $0.seek(to: 2.0) }),
        (1.7, { $0.setMuted(true) }),
        (1.8, { $0.setMuted(false) }),
    ]

    static func frame(_ seconds: Double) -> Int { Int((seconds * Double(rate)).rounded()) }

    /// The player on a pull device on the virtual clock: the script's calls between callbacks,
    /// events polled after every callback.
    static func pulled(_ compiled: CompiledSession) throws -> (heard: [Float], events: [PlayerEvent]) {
        let backend = FakeAudioBackend(rate: rate, pulls: true)
        var options = options()
        options.backend = backend
        let player = try LivePlayer(session: compiled, options: options)
        let log = TransportTests.EventLog()
        for (at, action) in script { backend.clock.at(at) { action(player) } }
        for k in 1...(4 * rate / block) { backend.clock.at(Double(k * block) / Double(rate)) { log.all += player.poll() } }
        try player.start()
        player.waitUntilFinished()
        return (backend.heard(), log.all + player.poll())
    }

    /// The app's own loop: before each block, the calls due by its first frame, then a poll,
    /// then `render` for the block.
    static func called(_ compiled: CompiledSession, blocks: Int) throws -> (heard: [Float], events: [PlayerEvent], finished: Bool) {
        let output = CallbackOutput(sampleRate: rate, channels: 2, maximumFrames: block, latencyFrames: block, name: "fake")
        let player = try LivePlayer(session: compiled, options: options(), callback: output)
        var heard = [Float](repeating: 0, count: 2 * block * blocks)
        var events: [PlayerEvent] = []
        var pending = script[...]
        try player.start()
        #expect(player.waitUntilStarted(timeout: 10))
        for b in 0..<blocks {
            while let (at, action) = pending.first, frame(at) <= b * block {
                action(player)
                pending = pending.dropFirst()
            }
            if b > 0 { events += player.poll() }
            heard.withUnsafeMutableBufferPointer { buffer in
                output.render(into: buffer.baseAddress! + 2 * block * b, frames: block)
            }
        }
        player.waitUntilFinished()
        return (heard, events + player.poll(), player.isFinished)
    }

    @Test func theAppsCallbackPlaysWhatThePlayerPlaysBitForBit() throws {
        let compiled = try Self.compile()
        let pulled = try Self.pulled(compiled)
        let blocks = pulled.heard.count / (2 * Self.block) + 64
        let called = try Self.called(compiled, blocks: blocks)
        #expect(called.finished)
        let n = pulled.heard.count
        #expect(n > 2 * Self.frame(2.0), "played \(n / 2) frames")
        let firstDifference = (0..<n).first { pulled.heard[$0] != called.heard[$0] }
        #expect(firstDifference == nil, "first difference at frame \(firstDifference.map { $0 / 2 } ?? -1)")
        // After the end, the callback is given silence.
        #expect(called.heard[n...].allSatisfy { $0 == 0 })
        #expect(called.events == pulled.events, "\(called.events)\n\(pulled.events)")

        // And the transport did act: the paused span is silent, and the seek skipped part of
        // the timeline (asked at 1.5 s on the clock, 1.2 s on the timeline after the 0.3 s
        // pause, so 0.8 s skipped: the 3 s session is heard for 3 − 0.8 + 0.3 = 2.5 s).
        let paused = (Self.frame(0.6) + Self.frame(0.05) + 2 * Self.block)..<Self.frame(0.9)
        #expect(paused.allSatisfy { called.heard[2 * $0] == 0 && called.heard[2 * $0 + 1] == 0 })
        #expect(called.heard[(2 * Self.frame(0.3))..<(2 * Self.frame(0.5))].contains { $0 != 0 })
        let kinds = called.events.map { "\($0)".split(separator: " ")[0] }
        for kind in ["started", "volume", "paused", "resumed", "triggered", "seeked", "ended"] {
            #expect(kinds.contains(Substring(kind)), "no \(kind) event: \(called.events)")
        }
        #expect(abs(Double(n / 2) / Double(Self.rate) - 2.5) < 0.05, "heard \(Double(n / 2) / Double(Self.rate)) s")
    }

    /// Before the player starts the callback is given silence, and a block larger than the
    /// output's largest is rendered in parts, all of it.
    @Test func silenceBeforeTheStartAndLargeBlocksInParts() throws {
        let compiled = try Self.compile()
        let output = CallbackOutput(sampleRate: Self.rate, channels: 2, maximumFrames: Self.block)
        let player = try LivePlayer(session: compiled, options: Self.options(), callback: output)
        var early = [Float](repeating: 1, count: 2 * 100)
        output.render(into: &early, frames: 100)
        #expect(early.allSatisfy { $0 == 0 })
        try player.start()
        #expect(player.waitUntilStarted(timeout: 10))
        var big = [Float](repeating: .nan, count: 2 * 1000)
        output.render(into: &big, frames: 1000)
        #expect(big.allSatisfy { $0.isFinite })
        #expect(big[(2 * 900)...].contains { $0 != 0 }, "the last part was rendered")
        #expect(player.status.position > 0)
        player.stopNow()
        var after = [Float](repeating: 1, count: 2 * 100)
        output.render(into: &after, frames: 100)
        #expect(after.allSatisfy { $0 == 0 })
    }
}
