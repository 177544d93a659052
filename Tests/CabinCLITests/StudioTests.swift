import CabinAudio
import CabinHaptics
import CabinJSON
import CabinPlayback
import CabinTestSupport
import Foundation
import Testing

/// A running `cabin studio` (the real binary, on a free port): its address from its first
/// line, fetched with the token and without.
final class RunningStudio {
    let tool: RunningTool
    let url: String

    init(_ arguments: [String], in folder: URL, environment: [String: String] = [:]) throws {
        let quoted = arguments.map { "'\($0)'" }.joined(separator: " ")
        tool = try RunningTool("/bin/sh", ["-c", "cd '\(folder.path)' && exec '\(ExternalTool.cabinBinary)' studio \(quoted)"],
                               environment: ["DISPLAY": "", "WAYLAND_DISPLAY": ""].merging(environment) { $1 })
        guard tool.wait(timeout: 30, until: { $0.contains("cabin studio: http://") }),
              let line = tool.stdout.split(separator: "\n").first(where: { $0.hasPrefix("cabin studio: http://") }),
              let start = line.range(of: "http://"), let end = line.range(of: " (", range: start.upperBound..<line.endIndex) else {
            throw HTTPClient.Failure(description: "no address: \(tool.stdout)\(tool.stderr)")
        }
        url = String(line[start.lowerBound..<end.lowerBound])
    }

    func get(_ path: String) throws -> HTTPClient.Response { try HTTPClient.request(url + path) }

    /// Every pattern's JSON.
    func patterns() throws -> [[String: Any]] {
        try JSONSerialization.jsonObject(with: get("patterns.json").body) as? [[String: Any]] ?? []
    }

    func stop() -> Int32 { tool.interrupt() }
}

/// Issue 30.2, the studio's server: `cabin studio FILE…` serves on 127.0.0.1 only, under a
/// random token; the JSON it serves is the compiler's figures and its WAV the haptics-to-audio
/// render; a save is pushed to the pages (server-sent events); broken input is one located
/// line; text from the file is escaped everywhere. (The page in a real browser:
/// StudioBrowserTests.)
@Suite struct StudioTests {
    static func pattern(times: [Double], intensity: Double = 0.8) -> String {
        let events = times.map { t in
            """
            { "Event": { "Time": \(t), "EventType": "HapticTransient", "EventParameters": [
                { "ParameterID": "HapticIntensity", "ParameterValue": \(intensity) },
                { "ParameterID": "HapticSharpness", "ParameterValue": 0.5 } ] } }
            """
        }
        return """
            { "Version": 1.0, "Pattern": [
            { "Event": { "Time": 0.0, "EventType": "HapticContinuous", "EventDuration": 0.3, "EventParameters": [
                { "ParameterID": "HapticIntensity", "ParameterValue": 0.4 },
                { "ParameterID": "HapticSharpness", "ParameterValue": 0.2 } ] } },
            \(events.joined(separator: ",\n"))
            ] }
            """
    }

    /// `timeline.KEY` of the first pattern in `json`, read by CabinJSON's parser (exact as
    /// strtod; Foundation's JSONSerialization on Linux misreads some shortest-form doubles,
    /// 0.20000000000000004 as 0.2000000000000001).
    static func exact(_ json: String, _ key: String) -> JSONValue? {
        JSONParser.parse(json, file: "patterns.json").value?.arrayValue?.first?.objectValue?["timeline"]?.objectValue?[key]
    }

    static func exactNumbers(_ json: String, _ key: String) -> [[Double]] {
        exact(json, key)?.arrayValue?.map { $0.arrayValue?.compactMap(\.numberValue) ?? [] } ?? []
    }

    static func numbers(_ value: Any?) -> [[Double]] {
        (value as? [[Any]] ?? []).map { $0.map { ($0 as? NSNumber)?.doubleValue ?? .nan } }
    }

    @Test func itServesTheCompilersFiguresAndSoundUnderItsTokenOnly() throws {
        let dir = try TestEnvironment.temporaryDirectory("cabin-studio")
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("p.ahap")
        try Data(Self.pattern(times: [0.1, 0.25]).utf8).write(to: file)
        let studio = try RunningStudio(["p.ahap", "--no-open"], in: dir)
        defer { _ = studio.stop() }

        // The address: loopback, a port, a 32-hex-digit token.
        let parts = studio.url.dropFirst("http://".count).split(separator: "/")
        #expect(parts.count == 2 && parts[0].hasPrefix("127.0.0.1:") && parts[1].count == 32, "\(studio.url)")
        #expect(parts[1].allSatisfy { $0.isHexDigit })
        #expect(studio.tool.stdout.contains("p.ahap: 0.302 s, 3 haptic events (2 transients)"), "\(studio.tool.stdout)")

        // Without the token, or with a wrong one: refused, whatever the path.
        let origin = "http://" + parts[0]
        for path in ["/", "/patterns.json", "/\(String(repeating: "0", count: 32))/patterns.json", "/\(parts[1].dropLast())/",
                     "/audio/0.wav", "/events"] {
            let response = try HTTPClient.request(origin + path)
            #expect(response.status == 403, "\(path): \(response.status)")
            #expect(!response.text.contains("p.ahap"))
        }
        #expect(try studio.get("nothing-here").status == 404)
        #expect(try HTTPClient.request(String(studio.url.dropLast())).status == 303)

        // The page: static, with its script and style, and a policy that runs no other script.
        let page = try studio.get("")
        #expect(page.status == 200 && page.header("Content-Type") == "text/html; charset=utf-8")
        #expect(page.text.contains("<script src=\"studio.js\"></script>"))
        #expect(page.header("Content-Security-Policy")?.contains("script-src 'self'") == true)
        #expect(try studio.get("studio.js").text.contains("new EventSource(\"events\")"))

        // The JSON is the compiler's figures, unrounded.
        let read = HapticPatternFile.read(file.path, options: HapticReadOptions(), strength: .strong)
        let compiled = try #require(read.compiled)
        let json = try studio.get("patterns.json").text
        let pattern = try #require(try studio.patterns().first)
        #expect(pattern["name"] as? String == "p.ahap")
        #expect(pattern["status"] as? String == "ok")
        let timeline = try #require(pattern["timeline"] as? [String: Any])
        #expect(Self.exactNumbers(json, "breakpoints") == compiled.breakpoints.map { [$0.time, $0.intensity, $0.sharpness] })
        #expect(Self.exactNumbers(json, "transients") == compiled.transients.map { [$0.time, $0.intensity, $0.sharpness] })
        #expect(Self.exact(json, "endTime")?.numberValue == compiled.endTime)
        #expect(Self.exact(json, "duration")?.numberValue == compiled.duration)
        #expect(compiled.transients.count == 2)

        // The sound: the haptics-to-audio render (`haptics render`'s), as 16-bit PCM.
        let audio = try #require(timeline["audio"] as? [String: Any])
        let wav = try studio.get(try #require(audio["url"] as? String))
        #expect(wav.status == 200 && wav.header("Content-Type") == "audio/wav")
        let rendered = try #require(HapticPatternFile.previewAudio(read.pattern!, compiled, file: file.path, options: HapticAudioOptions()).buffer)
        let bytes = [UInt8](wav.body)
        #expect(bytes.count == 44 + rendered.samples.count * 2)
        #expect(Array(bytes[0..<4]) == Array("RIFF".utf8) && Array(bytes[8..<16]) == Array("WAVEfmt ".utf8))
        let samples = stride(from: 44, to: bytes.count - 1, by: 2).map { Int16(bitPattern: UInt16(bytes[$0]) | UInt16(bytes[$0 + 1]) << 8) }
        let expected = rendered.samples.map { Int16((Double(max(-1, min(1, $0))) * 32767).rounded()) }
        #expect(samples == expected)
        #expect((audio["frames"] as? NSNumber)?.intValue == rendered.frameCount)
        let peaks = Self.numbers(audio["peaks"])
        #expect(peaks.count == 1000)
        #expect(peaks.map { $0[1] }.max() == Double(rendered.samples.max()!))
        #expect(try studio.get("audio/7.wav").status == 404)

        #expect(studio.stop() == 0)
        #expect(studio.tool.stdout.hasSuffix("cabin studio: stopped\n"), "\(studio.tool.stdout)")
        #expect(studio.tool.stderr.isEmpty, "\(studio.tool.stderr)")
    }

    /// A save reaches a listening page as a server-sent event; a broken one sends its
    /// located errors and keeps the last good timeline; a removed file is waited for.
    @Test func aSaveIsPushedToThePageAndABrokenOneKeepsTheLastGood() throws {
        let dir = try TestEnvironment.temporaryDirectory("cabin-studio")
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("p.ahap")
        try Data(Self.pattern(times: [0.1]).utf8).write(to: file)
        let studio = try RunningStudio(["p.ahap", "--no-open"], in: dir)
        defer { _ = studio.stop() }
        let events = try HTTPClient.Stream(studio.url + "events")
        defer { events.close() }
        #expect(events.wait { $0.contains("event: pattern\ndata: {\"index\":0,\"name\":\"p.ahap\",\"generation\":1,") }, "\(events.text)")

        try Data(Self.pattern(times: [0.1, 0.2, 0.3]).utf8).write(to: file, options: .atomic)
        #expect(events.wait { $0.contains("\"generation\":2,\"status\":\"ok\"") }, "\(events.text)")
        #expect(studio.tool.wait { $0.contains("p.ahap: 0.32 s, 4 haptic events (3 transients) (sent ") }, "\(studio.tool.stdout)")

        try Data(#"{ "Version": 1.0, "Pattern": [ { "Event": { "Time": "zero", "EventType": "HapticTransient" } } ] }"#.utf8).write(to: file)
        #expect(events.wait { $0.contains("\"generation\":3,\"status\":\"errors\"") }, "\(events.text)")
        let broken = try #require(try studio.patterns().first)
        let diagnostics = broken["diagnostics"] as? [[String: Any]] ?? []
        #expect(diagnostics.first?["line"] as? Int == 1 && diagnostics.first?["column"] as? Int == 53, "\(diagnostics)")
        #expect((broken["timeline"] as? [String: Any])?["generation"] as? Int == 2)
        #expect(studio.tool.wait { $0.contains("p.ahap:1:53: error: Pattern[0].Event.Time: expected a number") }, "\(studio.tool.stdout)")
        #expect(studio.tool.stdout.contains("p.ahap: not loaded (1 error); the version read at "))

        try FileManager.default.removeItem(at: file)
        #expect(events.wait { $0.contains("\"generation\":4,\"status\":\"missing\"") }, "\(events.text)")
        #expect(studio.stop() == 0)
    }

    /// Names and text from a pattern are data: JSON strings (escaped), never markup, and
    /// nothing reaches the terminal raw.
    @Test func hostileNamesAndTextAreEscaped() throws {
        let dir = try TestEnvironment.temporaryDirectory("cabin-studio")
        defer { try? FileManager.default.removeItem(at: dir) }
        let name = "<img src=x onerror=alert(1)>\u{1B}[31m\".ahap"
        try Data(#"{ "Version": 1.0, "Pattern": [ { "Event": { "Time": 0, "EventType": "HapticTransent</script>\u001B" } } ] }"#.utf8)
            .write(to: dir.appendingPathComponent(name))
        let studio = try RunningStudio([name, "--no-open"], in: dir)
        defer { _ = studio.stop() }
        let json = try studio.get("patterns.json").text
        #expect(json.contains(#""name":"<img src=x onerror=alert(1)>\u001B[31m\".ahap""#), "\(json)")
        #expect(!json.contains("\u{1B}"))
        #expect(studio.tool.wait { $0.contains("error:") })
        #expect(!studio.tool.stdout.contains("\u{1B}"), "\(studio.tool.stdout)")
        #expect(studio.tool.stdout.contains("\\u{1b}[31m"), "\(studio.tool.stdout)")
    }

    /// Bad input is one located line each, never a crash: a folder, a missing folder, a port in use.
    @Test func badInputIsOneLine() throws {
        let dir = try TestEnvironment.temporaryDirectory("cabin-studio")
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("folder.ahap"), withIntermediateDirectories: true)
        let studio = try RunningStudio(["folder.ahap", "later.ahap", "--no-open"], in: dir)
        #expect(studio.tool.stdout.contains("cabin: error: folder.ahap: "), "\(studio.tool.stdout)")
        #expect(studio.tool.stdout.contains("later.ahap: not there; waiting for it"), "\(studio.tool.stdout)")
        let port = String(studio.url.split(separator: ":")[2].prefix { $0.isNumber })
        // The port in use: one line, status 1.
        let second = try ExternalTool.cabin(["studio", "--no-open", "--port", port, dir.appendingPathComponent("later.ahap").path])
        #expect(second.status == 1)
        #expect(second.stderr.hasPrefix("cabin: error: cannot serve on 127.0.0.1:\(port): ") && second.stderr.split(separator: "\n").count == 1,
                "\(second.stderr)")
        #expect(studio.stop() == 0)

        let missing = try ExternalTool.cabin(["studio", "--no-open", "/nonexistent-cabin-folder/p.ahap"])
        #expect(missing.status == 1)
        #expect(missing.stderr == "cabin: error: /nonexistent-cabin-folder/p.ahap: cannot watch for saves: no such file or directory (inotify_add_watch)\n",
                "\(missing.stderr)")
    }

    /// With a display, the address is opened with xdg-open (a stand-in here); without one, not.
    @Test func theAddressIsOpenedWithXdgOpenWhenThereIsADisplay() throws {
        let dir = try TestEnvironment.temporaryDirectory("cabin-studio")
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data(Self.pattern(times: [0.1]).utf8).write(to: dir.appendingPathComponent("p.ahap"))
        let bin = dir.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        let opened = dir.appendingPathComponent("opened")
        try Data("#!/bin/sh\nprintf '%s' \"$1\" > '\(opened.path)'\n".utf8).write(to: bin.appendingPathComponent("xdg-open"))
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: bin.appendingPathComponent("xdg-open").path)
        let path = bin.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")

        let headless = try RunningStudio(["p.ahap"], in: dir, environment: ["PATH": path])
        #expect(headless.stop() == 0)
        #expect(!FileManager.default.fileExists(atPath: opened.path))
        #expect(!headless.tool.stdout.contains("opened in the browser"))

        let desktop = try RunningStudio(["p.ahap"], in: dir, environment: ["PATH": path, "DISPLAY": ":99"])
        defer { _ = desktop.stop() }
        #expect(desktop.tool.wait { $0.contains("opened in the browser (xdg-open)") }, "\(desktop.tool.stdout)")
        let deadline = Date().addingTimeInterval(5)
        while !FileManager.default.fileExists(atPath: opened.path) && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        Thread.sleep(forTimeInterval: 0.05)
        #expect((try? String(contentsOf: opened, encoding: .utf8)) == desktop.url)
    }
}
