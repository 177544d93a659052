import CabinJSON
import CabinPlayback
import CabinSession
import Foundation
import Testing

/// Issue 28 item 3: a session made in code (the public initialisers) is checked as a file
/// is: a misspelt bus and a misspelt layer in a cue were compiled without a word, both
/// layers silently dropped. Now each is an error with its path and a "did you mean", no
/// line:column of JSON the app never wrote, and structured diagnostics for the app.
@Suite struct SessionInCodeTests {
    static func misspelt() -> SessionDocument {
        var document = SessionDocument(title: "in code", duration: 10, layers: [
            Layer(name: "pad", bus: "ambeint", sound: .synth(.engine())),
            Layer(name: "rain", bus: "ambient", sound: .synth(.engine())),
        ])
        var start = Cue(time: 0, index: 0)
        start.start = ["paad", "rain"]
        document.cues = [start]
        return document
    }

    @Test func validatedReportsEveryProblemWithItsPath() {
        let problems = Self.misspelt().validated().all.filter(\.isError)
        let lines = problems.map(\.pathDescription)
        #expect(lines.count == 2, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("layers.pad.bus: error: ") && $0.contains("ambeint") && $0.contains("did you mean \"ambient\"") },
                "\(lines)")
        #expect(lines.contains { $0.hasPrefix("cues[0].start") && $0.contains("paad") && $0.contains("did you mean \"pad\"") }, "\(lines)")
    }

    @Test func loadingADocumentInCodeRefusesItWithPathsNotLineNumbers() throws {
        do {
            _ = try SessionLoader.load(document: Self.misspelt(), sampleRate: 48000, library: nil, patterns: nil)
            Issue.record("a document with a misspelt bus and layer loaded")
        } catch {
            #expect(error.lines.count == 2, "\(error.lines)")
            #expect(error.lines.allSatisfy { !$0.hasPrefix(SessionDocument.inCodeName) }, "\(error.lines)")
            #expect(error.lines.contains { $0.hasPrefix("layers.pad.bus: error: ") }, "\(error.lines)")
            print("in code: \(error.lines)")
            #expect(error.diagnostics.map(\.path.description).sorted() == ["cues[0].start[0]", "layers.pad.bus"], "\(error.diagnostics)")
            #expect(error.diagnostics.allSatisfy { !$0.rule.isEmpty })
        }
        // The same document spelt right loads, and plays both layers.
        var right = Self.misspelt()
        right.layers[0].bus = "ambient"
        right.cues[0].start = ["pad", "rain"]
        #expect(right.validated().all.isEmpty)
        let loaded = try SessionLoader.load(document: right, sampleRate: 48000, library: nil, patterns: nil)
        #expect(loaded.compiled.warnings.isEmpty)
        #expect(loaded.document.layers.map(\.name) == ["pad", "rain"])
    }
}
