import CabinSession
import CabinTestSupport
import Foundation
import FoundationXML
import Testing

/// `cabin session plot`: the picture of every preset, read back as XML.
@Suite struct SessionPlotTests {
    /// Every element under `node`, depth first.
    static func elements(_ node: XMLNode) -> [XMLElement] {
        (node.children ?? []).flatMap { child -> [XMLElement] in
            guard let element = child as? XMLElement else { return [] }
            return [element] + elements(element)
        }
    }

    /// An attribute's value (read from the list: `attribute(forName:)` finds none on
    /// elements in the SVG namespace with swift-corelibs-foundation).
    static func attribute(_ element: XMLElement, _ name: String) -> String? {
        element.attributes?.first { $0.name == name }?.stringValue
    }

    static func number(_ element: XMLElement, _ name: String) -> Double? {
        attribute(element, name).flatMap(Double.init)
    }

    @Test(arguments: ["drive", "pomodoro", "ambient", "breathing", "quest", "ui"])
    func everyPresetIsDrawnWithItsLanesMarksAndLoudness(_ preset: String) throws {
        let dir = try TestEnvironment.temporaryDirectory("cabin-plot")
        let out = dir.appendingPathComponent("\(preset).svg").path
        let result = try ExternalTool.cabin(["session", "plot", "--preset", preset, "-o", out])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("\(out): "))

        // What the preset's document says, read from its JSON as a user would.
        let json = try ExternalTool.cabin(["session", "--preset", preset])
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let cues = document["cues"] as? [[String: Any]] ?? []
        func seconds(_ value: Any?) -> Double? {
            if let n = value as? Double { return n }
            if let n = value as? Int { return Double(n) }
            return (value as? String).flatMap(SessionTime.parse)
        }
        let duration = try #require(seconds(document["duration"]))
        // A mark is a name, or a name with the title people see ({"name": "rest", "title": "rest stop"}).
        let marks = cues.compactMap { cue -> (String, Double, String)? in
            let object = cue["mark"] as? [String: Any]
            guard let name = cue["mark"] as? String ?? object?["name"] as? String else { return nil }
            return (name, seconds(cue["at"]) ?? -1, object?["title"] as? String ?? name)
        }
        // Sound layers, and haptic layers (a lane of their own: intensity, no bus).
        let layers = (document["layers"] as? [String: Any] ?? [:]).filter { ($0.value as? [String: Any])?["bus"] != nil }.keys.sorted()
        let hapticLayers = (document["layers"] as? [String: Any] ?? [:]).filter { ($0.value as? [String: Any])?["haptic"] != nil }.keys.sorted()
        let haptics = cues.filter { $0["haptic"] != nil }.count

        let xml = try XMLDocument(data: Data(contentsOf: URL(fileURLWithPath: out)))
        let root = try #require(xml.rootElement())
        #expect(root.name == "svg")
        let all = Self.elements(root)
        func ofClass(_ c: String) -> [XMLElement] { all.filter { Self.attribute($0, "class") == c } }
        let timeline = try #require(ofClass("timeline").first)
        let x0 = try #require(Self.number(timeline, "x")), width = try #require(Self.number(timeline, "width"))
        func x(_ t: Double) -> Double { x0 + t / duration * width }

        // A lane for every layer, named by it.
        let lanes = Set(ofClass("lane").compactMap { Self.attribute($0, "data-lane") })
        for layer in layers { #expect(lanes.contains("layer:\(layer)"), "\(preset): no lane for layer \(layer)") }
        #expect(ofClass("envelope").count == layers.count)
        for layer in hapticLayers { #expect(lanes.contains("haptic-layer:\(layer)"), "\(preset): no lane for haptic layer \(layer)") }
        #expect(ofClass("haptic-envelope").count == hapticLayers.count)

        // Every mark, at the x of its time.
        let drawn = ofClass("mark")
        #expect(drawn.count == marks.count)
        for (element, (name, time, title)) in zip(drawn, marks) {
            #expect(Self.attribute(element, "data-name") == name)
            let text = (element.children ?? []).compactMap { $0 as? XMLElement }.first { $0.name == "text" }
            #expect(text?.stringValue == title, "\(preset): mark \(name) labelled \(text?.stringValue ?? "nothing")")
            let line = try #require((element.children ?? []).compactMap { $0 as? XMLElement }.first { $0.name == "line" })
            let at = try #require(Self.number(line, "x1"))
            #expect(abs(at - x(time)) < 0.011, "\(preset): mark \(name) at \(time) s drawn at x \(at), not \(x(time))")
        }

        // Haptic cues, each at the x of its time.
        let hapticLines = ofClass("haptic")
        #expect(hapticLines.count == haptics)
        for line in hapticLines {
            let t = try #require(Self.number(line, "data-time"))
            #expect(abs(try #require(Self.number(line, "x1")) - x(t)) < 0.011)
        }

        // One loudness point per step (1 s, or longer for sessions over 10 minutes), each at its time.
        let loudness = try #require(ofClass("loudness").first)
        let points = (Self.attribute(loudness, "points") ?? "").split(separator: " ")
        let step = max(1, (duration / 600).rounded(.up))
        #expect(points.count == Int((duration / step + 1e-9).rounded(.down)))
        if let last = points.last, let lx = last.split(separator: ",").first.flatMap({ Double($0) }) {
            #expect(abs(lx - x(Double(points.count) * step)) < 0.011)
        }
        // Parameters are drawn as lines over time.
        for parameter in (document["parameters"] as? [String: Any] ?? [:]).keys {
            #expect(ofClass("value").contains { Self.attribute($0, "data-name") == parameter })
        }
    }

    /// The drive: its speed profile is a parameter lane, its voice ducks the bed, and the
    /// loudness sits near the −20 LUFS target while driving.
    @Test func theDriveShowsSpeedDuckingAndItsLoudness() throws {
        let dir = try TestEnvironment.temporaryDirectory("cabin-plot")
        let out = dir.appendingPathComponent("drive.svg").path
        let result = try ExternalTool.cabin(["session", "plot", "--preset", "drive", "-o", out, "--width", "1000"])
        #expect(result.status == 0, "\(result.stderr)")
        let root = try #require(try XMLDocument(data: Data(contentsOf: URL(fileURLWithPath: out))).rootElement())
        let all = Self.elements(root)
        #expect(Self.attribute(root, "width") == "1000")
        let speed = try #require(all.first { Self.attribute($0, "data-name") == "speed" })
        #expect((Self.attribute(speed, "points") ?? "").split(separator: " ").count > 10)
        #expect(all.contains { Self.attribute($0, "class") == "duck" })
        #expect(all.contains { Self.attribute($0, "class") == "cue" })
        #expect(all.contains { Self.attribute($0, "class") == "loudness-target" })
    }

    @Test func aPictureIsNeverWrittenUnderAnotherFormatsName() throws {
        let dir = try TestEnvironment.temporaryDirectory("cabin-plot")
        let pattern = TestEnvironment.packageRoot.appendingPathComponent("Patterns/haptics/arrival.ahap").path
        for (arguments, name) in [(["session", "plot", "--preset", "quest"], "quest.png"), (["haptics", "plot", pattern], "arrival.png")] {
            let out = dir.appendingPathComponent(name).path
            let result = try ExternalTool.cabin(arguments + ["-o", out])
            #expect(result.status == 64)
            #expect(result.stderr.hasPrefix("Error: -o \(out): this command writes an SVG picture; name the file .svg (not .png)\n"), "\(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: out))
        }
    }

    @Test func theSessionItselfIsNeverOverwritten() throws {
        let dir = try TestEnvironment.temporaryDirectory("cabin-plot")
        let session = dir.appendingPathComponent("s.svg").path
        let text = #"{ "cabin": 1, "duration": "5s", "layers": { "a": { "bus": "ambient", "sound": "synth:pink-noise", "loop": true } }, "cues": [ { "at": 0, "start": "a" } ] }"#
        try Data(text.utf8).write(to: URL(fileURLWithPath: session))
        let result = try ExternalTool.cabin(["session", "plot", session, "-o", session])
        #expect(result.status == 1)
        #expect(try String(contentsOfFile: session, encoding: .utf8) == text)
    }
}
