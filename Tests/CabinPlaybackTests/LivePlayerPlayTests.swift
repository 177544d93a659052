import CabinAudio
import CabinIO
import CabinOutput
import CabinPlayback
import CabinRadio
import CabinSession
import CabinTestSupport
import CabinTesting
import Foundation
import Testing

/// Issue 28.2: the front door, `LivePlayer.play(_:device:)`. A preset plays on the silent
/// clock and its events come through `events`, which ends after `.ended`; a short document
/// ends by itself; a misspelt document is `PlayError.session` with its structured
/// diagnostics; an unknown device is `PlayError.device` with `.notFound`; a sound file plays
/// as a one-layer session. Each error's words name no `cabin` command and no `--flag`.
@Suite struct LivePlayerPlayTests {
    /// The radio plays the sessions these tests load, as in `cabin`.
    init() { RadioStations.register() }

    static func write(_ text: String, _ name: String) throws -> String {
        let dir = try TestEnvironment.temporaryDirectory("cabin-front-door")
        let path = dir.appendingPathComponent(name).path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    static func isEnd(_ event: PlayerEvent) -> Bool { if case .ended = event { true } else { false } }

    @Test func aPresetPlaysSilentlyAndItsEventsEndAfterTheEnd() async throws {
        let player = try LivePlayer.play(.preset("quest", options: ["seconds": "30"]), device: .none)
        var events: [PlayerEvent] = [], stopped = false
        for await event in player.events {
            events.append(event)
            if case .mark = event, !stopped { player.stop(); stopped = true }   // at the first mark
        }
        // Started on the silent clock (no sound device asked for), a mark, then the stop's end, last.
        guard case .started(let info) = events.first else { Issue.record("\(events)"); return }
        #expect(info.silentReason != nil, "\(info)")
        #expect(events.contains { if case .mark = $0 { true } else { false } }, "\(events)")
        guard case .ended(let reason, _, _) = events.last else { Issue.record("no end last: \(events)"); return }
        #expect(reason == .stopped)
        #expect(events.filter(Self.isEnd).count == 1)
        #expect(player.isFinished)
    }

    @Test func aShortDocumentEndsByItselfAndTheSequenceWithIt() async throws {
        let path = try Self.write(TransportTests.json, "transport.json")
        let player = try LivePlayer.play(.file(path), device: .none)
        var events: [PlayerEvent] = []
        for await event in player.events { events.append(event) }
        #expect(events.contains { if case .mark("late", _, _) = $0 { true } else { false } }, "\(events)")
        guard case .ended(let reason, let time, _) = events.last else { Issue.record("no end last: \(events)"); return }
        #expect(reason == .finished && time > 1.5, "\(events)")
    }

    @Test func aMisspeltDocumentGivesItsDiagnosticsThroughTheTypedError() throws {
        let misspelt = TransportTests.json.replacingOccurrences(of: "\"bus\": \"radio\"", with: "\"bus\": \"raido\"")
        let path = try Self.write(misspelt, "misspelt.json")
        do throws(LivePlayer.PlayError) {
            _ = try LivePlayer.play(.file(path), device: .none)
            Issue.record("played a misspelt document")
        } catch {
            guard case .session(let failure) = error else { Issue.record("not the document's problems: \(error)"); return }
            let problem = try #require(failure.diagnostics.first, "\(failure)")
            #expect("\(problem.path)" == "layers.tone.bus", "\(problem)")
            #expect(problem.message.contains("raido") && problem.message.contains("radio"), "\(problem)")
            #expect(error.description.contains("layers.tone.bus"), "\(error)")
        }
    }

    @Test func anUnknownPresetOrOptionIsTheSourceCaseInTheLibrarysWords() {
        for (session, words) in [(LivePlayer.Session.preset("drvie"), "no preset \"drvie\""),
                                 (.preset("drive", options: ["minutes": "0"]), "minutes must be a whole number")] {
            do throws(LivePlayer.PlayError) {
                _ = try LivePlayer.play(session, device: .none)
                Issue.record("played \(session)")
            } catch {
                guard case .source(.preset) = error else { Issue.record("not the preset's: \(error)"); return }
                #expect(error.description.hasPrefix(words), "\(error)")
                #expect(!error.description.contains("--") && !error.description.contains("'cabin "), "\(error)")
            }
        }
    }

    @Test func anUnknownDeviceIsTheDeviceCaseWithNotFound() {
        do throws(LivePlayer.PlayError) {
            _ = try LivePlayer.play(.preset("quest", options: ["seconds": "30"]), device: .named("nosuchcard"))
            Issue.record("played on a device that does not exist")
        } catch {
            guard case .device(let e) = error else { Issue.record("not the device's: \(error)"); return }
            #expect(e.kind == .notFound && e.device == "nosuchcard", "\(e)")
            #expect(!error.description.contains("'cabin ") && !error.description.contains(" -D "), "\(error)")
        }
    }

    @Test func aSoundFilePlaysAsAOneLayerSession() throws {
        let rate = 8000
        let dir = try TestEnvironment.temporaryDirectory("cabin-front-door")
        let path = dir.appendingPathComponent("tone.wav").path
        let tone = AudioBuffer(samples: [Float](repeating: 0.25, count: rate / 2), channelCount: 1, sampleRate: Double(rate))
        try SoundFile.write(tone, to: path, format: .wav(.float32))
        let backend = FakeAudioBackend(rate: rate)
        var options = LivePlayer.Options(configuration: OutputConfiguration(sampleRate: rate, channelCount: 2, periodFrames: 64, periodCount: 3))
        options.backend = backend
        let player = try LivePlayer.play(.file(path), device: .named("fake"), options: options)
        player.waitUntilFinished()
        let events = player.poll()
        #expect(events.contains { if case .ended(.finished, _, _) = $0 { true } else { false } }, "\(events)")
        #expect(player.session.title == "tone.wav")
        #expect(player.session.durationFrames == FrameTime(rate / 2))
        // Heard: the tone, not silence.
        #expect(backend.heard().contains { abs($0) > 0.01 })
    }
}
