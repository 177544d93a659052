import CabinAudio
import CabinIO
import CabinPlayback
import CabinRadio
import CabinSession
import CabinTestSupport
import Foundation
import Testing

/// Issue 29.5: resolving a session (a document file, standard input, a sound file, a preset)
/// is a library function, `SessionSource`, that `cabin play`, `render`, `session levels`
/// and `session plot` call; its errors say nothing of a command line.
@Suite struct SessionSourceTests {
    /// The radio plays the sessions these tests load, as in `cabin`.
    init() { RadioStations.register() }

    static let rate = 8000

    @Test func aSoundFileIsAOneLayerSessionThatLoads() throws {
        let dir = try TestEnvironment.temporaryDirectory("cabin-source")
        let tone = AudioBuffer(samples: [Float](repeating: 0.25, count: 2 * Self.rate), channelCount: 1, sampleRate: Double(Self.rate))
        let path = dir.appendingPathComponent("tone.wav").path
        try SoundFile.write(tone, to: path, format: .wav(.float32))
        let source = try SessionSource(file: path, preset: "drive", presetOptions: [:])
        #expect(source.isSoundFile && source.preset == nil && source.name == path)
        #expect(source.folder == dir.path && source.fileFolder == dir.path)
        let document = try #require(source.document)
        #expect(document.title == "tone.wav" && document.layers.count == 1 && document.duration == 2)
        let loaded = try source.load(sampleRate: Double(Self.rate), maxBlockFrames: 512, library: nil)
        #expect(loaded.compiled.durationFrames == 2 * FrameTime(Self.rate))
        // Looping, it lasts as long as asked.
        let looped = try SessionSource(file: path, preset: "drive", presetOptions: [:], loopFor: 5)
        #expect(looped.document?.duration == 5 && looped.document?.layers.first?.isLooping == true)
    }

    @Test func anUnreadableSoundFileIsOneLineWithoutTheCommandLine() throws {
        let path = "/nonexistent/cabin-source-test/tone.wav"
        do {
            _ = try SessionSource(file: path, preset: "drive", presetOptions: [:])
            Issue.record("no error")
        } catch {
            guard case .soundFile(let line) = error else { Issue.record("\(error)"); return }
            #expect(line.contains(path) && !line.contains("\n") && !line.hasPrefix("cabin:"), "\(line)")
        }
    }

    @Test func aPresetIsItsDocumentAndABadOptionIsThePresetsLine() throws {
        let source = try SessionSource(file: nil, preset: "pomodoro", presetOptions: ["focus": "50m"])
        #expect(source.name == "preset pomodoro" && source.preset == "pomodoro" && source.options == ["focus": "50m"])
        #expect(source.document?.json() == (try SessionPresets.make("pomodoro", options: ["focus": "50m"])).json())
        #expect(source.folder == nil && source.fileFolder == nil)
        #expect(throws: SessionSource.Failure.self) { try SessionSource(file: nil, preset: "drive", presetOptions: ["minutes": "0"]) }
        do { _ = try SessionSource(file: nil, preset: "drive", presetOptions: ["minutes": "0"]) } catch {
            #expect(error.description == "minutes must be a whole number of minutes from 25 to 240, not '0'")
        }
        // As remembered by a state file: the preset made again with its options.
        let remembered = try SessionSource(rememberedFile: nil, preset: "pomodoro", options: ["focus": "50m"])
        #expect(remembered.document?.json() == source.document?.json())
    }

    @Test func aDocumentFileIsReadByTheLoaderFromItsFolder() throws {
        let dir = try TestEnvironment.temporaryDirectory("cabin-source")
        let tone = AudioBuffer(samples: [Float](repeating: 0.25, count: Self.rate), channelCount: 1, sampleRate: Double(Self.rate))
        try SoundFile.write(tone, to: dir.appendingPathComponent("tone.wav").path, format: .wav(.float32))
        let path = dir.appendingPathComponent("s.json").path
        try Data(SessionDocument.playing(file: "tone.wav", duration: 3, looping: true).json().utf8).write(to: URL(fileURLWithPath: path))
        let source = try SessionSource(file: path, preset: "drive", presetOptions: ["minutes": "0"])
        #expect(source.document == nil && source.preset == nil && !source.isSoundFile && source.fileFolder == dir.path)
        let loaded = try source.load(sampleRate: Double(Self.rate), maxBlockFrames: 512, library: nil)
        #expect(loaded.compiled.durationFrames == 3 * FrameTime(Self.rate))
        #expect(source.inputFiles(loaded.document) == [dir.appendingPathComponent("tone.wav").path])
        // Standard input's and a preset's relative paths are the working folder's.
        #expect(try SessionSource(file: "-", preset: "drive", presetOptions: [:]).inputFiles(loaded.document) == ["./tone.wav"])
        #expect(try SessionSource(file: nil, preset: "breathing", presetOptions: [:]).inputFiles(loaded.document) == ["./tone.wav"])
        // A missing file is the loader's one line, with its path.
        let missing = try SessionSource(file: dir.appendingPathComponent("none.json").path, preset: "drive", presetOptions: [:])
        do {
            _ = try missing.load(sampleRate: Double(Self.rate), maxBlockFrames: 512, library: nil)
            Issue.record("no error")
        } catch {
            #expect(error.lines.count == 1 && error.lines[0].contains("none.json") && !error.lines[0].hasPrefix("cabin:"), "\(error.lines)")
        }
    }
}
