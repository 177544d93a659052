import CabinAudio
import CabinHaptics
import CabinIO
import CabinPlayback
import CabinTestSupport
import Foundation
import Testing

/// Issue 30.2 in a real browser: headless Chromium (Debian's `chromium` and
/// `chromium-driver`, over WebDriver) loads `cabin studio`'s page, which draws the
/// pattern's timeline from the compiler's figures and its sound; a saved edit is redrawn
/// without a reload; a broken edit shows its located error, which highlights its line.
@Suite(.enabled(if: WebDriver.available, "needs Debian's chromium and chromium-driver (scripts/install-deps installs them)"))
struct StudioBrowserTests {
    /// What section `index` drew (its data attributes), and whether the page is connected.
    static let drawn = """
        const s = document.querySelector('section.pattern[data-index="' + arguments[0] + '"]');
        if (!s) return null;
        return Object.assign({ connected: document.getElementById("status").dataset.connected,
                               marker: String(window.cabinMarker), name: s.querySelector(".name").textContent,
                               message: s.querySelector(".message").textContent,
                               items: [...s.querySelectorAll("ol.diagnostics li")].map(li => li.textContent),
                               images: document.images.length }, s.dataset);
        """

    func drawn(_ browser: WebDriver, _ index: Int = 0) throws -> [String: String] {
        (try browser.execute(Self.drawn, [index]) as? [String: Any] ?? [:]).mapValues { v in
            (v as? [Any]).map { $0.map { "\($0)" }.joined(separator: "\n") } ?? "\(v)"
        }
    }

    func wait(_ browser: WebDriver, _ index: Int = 0, timeout: Double = 15, until condition: ([String: String]) -> Bool) throws -> [String: String] {
        let deadline = Date().addingTimeInterval(timeout)
        var state = try drawn(browser, index)
        while !condition(state) && Date() < deadline {
            Thread.sleep(forTimeInterval: 0.02)
            state = try drawn(browser, index)
        }
        return state
    }

    /// `cabin studio ARGUMENTS --no-open` run in a new temporary folder holding `files`
    /// (name and text), and headless Chromium on its page; `body` gets the folder, the studio
    /// and the browser. Everything is stopped and removed after.
    func withStudio(_ label: String, files: [(name: String, text: String)] = [], arguments: [String],
                    environment: [String: String] = [:], body: (URL, RunningStudio, WebDriver) throws -> Void) throws {
        let dir = try TestEnvironment.temporaryDirectory(label)
        defer { try? FileManager.default.removeItem(at: dir) }
        for file in files { try Data(file.text.utf8).write(to: dir.appendingPathComponent(file.name)) }
        let studio = try RunningStudio(arguments + ["--no-open"], in: dir, environment: environment)
        defer {
            let status = studio.stop()
            #expect(status == 0, "cabin studio's exit status after Ctrl-C: \(studio.tool.stderr)")
        }
        let browser = try WebDriver()
        defer { browser.quit() }
        try browser.open(studio.url)
        try body(dir, studio, browser)
    }

    @Test func thePageDrawsThePatternAndRedrawsASaveWithoutReloading() throws {
        try withStudio("cabin-studio-browser", files: [("p.ahap", StudioTests.pattern(times: [0.1, 0.2])),
                                                       ("<i>B.ahap", StudioTests.pattern(times: [0.05, 0.15, 0.25, 0.35, 0.45]))],
                       arguments: ["p.ahap", "<i>B.ahap"]) { dir, _, browser in
        let file = dir.appendingPathComponent("p.ahap"), other = dir.appendingPathComponent("<i>B.ahap")

        // Drawn: the compiler's transients and breakpoints, the sound's waveform; both
        // patterns on one time axis (the longer one's end).
        let compiled = try #require(HapticPatternFile.read(file.path, options: HapticReadOptions(), strength: .strong).compiled)
        let otherCompiled = try #require(HapticPatternFile.read(other.path, options: HapticReadOptions(), strength: .strong).compiled)
        var state = try wait(browser) { $0["transientsDrawn"] != nil && $0["audioSeconds"] != nil && $0["connected"] == "true" }
        #expect(state["transientsDrawn"] == "\(compiled.transients.count)", "\(state)")
        #expect(state["breakpointsDrawn"] == "\(compiled.breakpoints.count)", "\(state)")
        #expect(Int(state["peaksDrawn"] ?? "") ?? 0 > 100, "\(state)")
        #expect(state["status"] == "ok" && state["generation"] == "1")
        let wav = try #require(HapticPatternFile.previewAudio(HapticPatternFile.read(file.path, options: HapticReadOptions(), strength: .strong).pattern!,
                                                               compiled, file: file.path, options: HapticAudioOptions()).buffer)
        #expect(abs((Double(state["audioSeconds"] ?? "") ?? 0) - wav.duration) < 0.001, "\(state) \(wav.duration)")
        let b = try wait(browser, 1) { $0["transientsDrawn"] != nil }
        #expect(b["transientsDrawn"] == "5" && b["name"] == "<i>B.ahap" && b["images"] == "0", "\(b)")
        #expect(Double(state["drawnEnd"] ?? "") ?? 0 >= otherCompiled.endTime, "\(state)")

        // A saved edit: redrawn in place (the page's own state survives: no reload).
        try browser.execute("window.cabinMarker = 42;")
        let saved = Date().timeIntervalSince1970 * 1000
        try Data(StudioTests.pattern(times: [0.1, 0.2, 0.3, 0.4]).utf8).write(to: file, options: .atomic)
        state = try wait(browser) { $0["generation"] == "2" && $0["transientsDrawn"] == "4" }
        #expect(state["generation"] == "2" && state["transientsDrawn"] == "4" && state["marker"] == "42", "\(state)")
        let latency = (Double(state["updatedAt"] ?? "") ?? .infinity) - saved
        print("StudioBrowserTests: save to redrawn page \(Int(latency.rounded())) ms")
        #expect(latency < 1000, "\(latency) ms")

        // A broken edit: its located error listed, the last good timeline still drawn; its
        // place highlights the line in the source.
        try Data("{ \"Version\": 1.0,\n  \"Pattern\": [ { \"Event\": { \"Time\": \"zero\", \"EventType\": \"HapticTransient\" } } ] }".utf8).write(to: file)
        state = try wait(browser) { $0["status"] == "errors" }
        #expect(state["status"] == "errors" && state["transientsDrawn"] == "4" && state["marker"] == "42", "\(state)")
        #expect(state["items"]?.hasPrefix("2:37 error: Pattern[0].Event.Time: expected a number") == true, "\(state)")
        #expect(state["message"]?.hasPrefix("not loaded (1 error); the version read at ") == true, "\(state)")
        try browser.execute("document.querySelector('section.pattern[data-index=\"0\"] ol.diagnostics button').click();")
        state = try drawn(browser)
        #expect(state["highlightedLine"] == "2", "\(state)")
        let highlighted = try browser.execute("return document.querySelector('span.highlight').textContent;") as? String
        #expect(highlighted?.contains("\"Time\": \"zero\"") == true, "\(highlighted ?? "nil")")

        // Fixed again, then played: the playhead follows the sound.
        try Data(StudioTests.pattern(times: [0.1]).utf8).write(to: file)
        state = try wait(browser) { $0["status"] == "ok" && $0["transientsDrawn"] == "1" }
        #expect(state["generation"] == "4", "\(state)")
        try browser.execute("document.querySelector('section.pattern[data-index=\"0\"] button.play').click();")
        state = try wait(browser) { Double($0["playhead"] ?? "") ?? 0 > 0.05 }
        #expect(Double(state["playhead"] ?? "") ?? 0 > 0.05, "\(state)")
        }
    }

    /// The canvas colour (`r,g,b,a`) of section `arguments[0]`'s timeline at each point
    /// `[time, value]` of `arguments[1]`, placed as the page's drawing places them.
    static let pixels = """
        const s = document.querySelector('section.pattern[data-index="' + arguments[0] + '"]'), c = s.querySelector('canvas');
        const ratio = window.devicePixelRatio || 1, width = c.width / ratio, height = c.height / ratio;
        const left = 40, plotWidth = width - 50, top = 10, plotHeight = height - 32;
        const start = Number(s.dataset.drawnStart), end = Number(s.dataset.drawnEnd), g = c.getContext('2d');
        return arguments[1].map(([t, v]) => {
          const x = left + (t - start) / (end - start) * plotWidth, y = top + (1 - v) * plotHeight;
          return Array.from(g.getImageData(Math.round(x * ratio), Math.round(y * ratio), 1, 1).data).join(',');
        });
        """

    /// A/B overlay (issue 30.2): "compare with" lists the other patterns by name and draws the
    /// chosen one's intensity, sharpness and transients over this lane, in purple (the canvas
    /// is purple at each of B's transients, and was not before); a save of B redraws it; choosing
    /// nothing takes it away.
    @Test func compareWithDrawsTheOtherPatternOverThisLane() throws {
        try withStudio("cabin-studio-compare", files: [("a.ahap", StudioTests.pattern(times: [0.1, 0.2])),
                                                       ("<b>B.ahap", StudioTests.pattern(times: [0.05, 0.15, 0.25, 0.35, 0.45], intensity: 0.7))],
                       arguments: ["a.ahap", "<b>B.ahap"]) { dir, _, browser in
        let b = dir.appendingPathComponent("<b>B.ahap")
        let compiledB = try #require(HapticPatternFile.read(b.path, options: HapticReadOptions(), strength: .strong).compiled)
        let points = compiledB.transients.map { [$0.time, $0.intensity] }
        _ = try wait(browser, 1) { $0["transientsDrawn"] == "5" }
        var state = try wait(browser) { $0["transientsDrawn"] == "2" }
        let purple = "148,103,189,255"
        let before = try browser.execute(Self.pixels, [0, points]) as? [String] ?? []
        #expect(before.count == 5 && !before.contains(purple), "\(before)")
        let choices = try browser.execute("return [...document.querySelectorAll('section.pattern[data-index=\"0\"] select.compare option')].map(o => o.value + '=' + o.textContent);") as? [String]
        #expect(choices == ["=nothing", "1=<b>B.ahap"], "\(choices ?? [])")

        try browser.execute("const s = document.querySelector('section.pattern[data-index=\"0\"] select.compare'); s.value = '1'; s.dispatchEvent(new Event('change'));")
        state = try wait(browser) { $0["overlayTransientsDrawn"] == "5" }
        #expect(state["overlayTransientsDrawn"] == "5" && state["overlayName"] == "<b>B.ahap" && state["overlayIndex"] == "1", "\(state)")
        #expect(state["overlayBreakpointsDrawn"] == "\(compiledB.breakpoints.count)" && state["transientsDrawn"] == "2", "\(state)")
        #expect(state["images"] == "0")
        let after = try browser.execute(Self.pixels, [0, points]) as? [String] ?? []
        #expect(after == Array(repeating: purple, count: 5), "\(after)")
        // B's own lane is not overlaid: its transients are red there.
        let own = try browser.execute(Self.pixels, [1, points]) as? [String] ?? []
        #expect(own == Array(repeating: "214,39,40,255", count: 5), "\(own)")

        // B saved: the overlay follows it.
        try Data(StudioTests.pattern(times: [0.3], intensity: 0.7).utf8).write(to: b, options: .atomic)
        state = try wait(browser) { $0["overlayGeneration"] == "2" }
        #expect(state["overlayTransientsDrawn"] == "1" && state["overlayGeneration"] == "2", "\(state)")

        // Nothing chosen: no overlay.
        try browser.execute("const s = document.querySelector('section.pattern[data-index=\"0\"] select.compare'); s.value = ''; s.dispatchEvent(new Event('change'));")
        state = try wait(browser) { $0["overlayTransientsDrawn"] == "0" }
        #expect(state["overlayTransientsDrawn"] == "0" && state["overlayName"] == "", "\(state)")
        }
    }

    /// Issue 30.2, a session opened in the studio (`--preset`): the page shows its lanes as
    /// `cabin session plot` draws them — the very picture that command writes (without its
    /// loudness render) — under its title.
    @Test func aPresetsLanesAreSessionPlotsPicture() throws {
        try withStudio("cabin-studio-session", arguments: ["--preset", "ui", "-D", "none", "--ipc", "off"]) { dir, studio, browser in
        let svg = try studio.get("session.svg")
        #expect(svg.status == 200 && svg.header("Content-Type") == "image/svg+xml")
        let picture = dir.appendingPathComponent("ui.svg")
        let plot = try ExternalTool.cabin(["session", "plot", "--preset", "ui", "--no-loudness", "-o", picture.path])
        #expect(plot.status == 0, "\(plot.stderr)")
        #expect(svg.body == (try Data(contentsOf: picture)), "the page's lanes are session plot's picture")

        let script = """
            const s = document.getElementById("session");
            return { hidden: String(s.hidden), loaded: s.dataset.loaded || "", width: s.dataset.width || "",
                     title: s.querySelector(".title").textContent, src: s.querySelector("img").getAttribute("src") || "" };
            """
        let state = try browser.wait(script, timeout: 15) { ($0 as? [String: Any])?["loaded"] as? String == "true" } as? [String: Any] ?? [:]
        #expect(state["hidden"] as? String == "false" && state["loaded"] as? String == "true" && state["src"] as? String == "session.svg", "\(state)")
        #expect(state["width"] as? String == "1600" && !(state["title"] as? String ?? "").isEmpty, "\(state)")
        }
    }

    /// What the device buttons of section `index` say: each one's enabled state, text and
    /// reason, and the message after a press.
    static let deviceButtons = """
        const s = document.querySelector('section.pattern[data-index="' + arguments[0] + '"]');
        if (!s) return null;
        const state = { deviceState: s.dataset.deviceState || "", message: s.querySelector(".device-message").textContent };
        for (const b of s.querySelectorAll("button.device")) {
          state[b.dataset.kind] = b.textContent; state[b.dataset.kind + "Disabled"] = String(b.disabled);
          state[b.dataset.kind + "Available"] = b.dataset.available || ""; state[b.dataset.kind + "Why"] = b.nextElementSibling.textContent;
        }
        return state;
        """

    func devices(_ browser: WebDriver, until condition: ([String: String]) -> Bool) throws -> [String: String] {
        let deadline = Date().addingTimeInterval(15)
        var state: [String: String] = [:]
        repeat {
            state = (try browser.execute(Self.deviceButtons, [0]) as? [String: Any] ?? [:]).mapValues { "\($0)" }
            if condition(state) { break }
            Thread.sleep(forTimeInterval: 0.02)
        } while Date() < deadline
        return state
    }

    /// Issue 30.2's device buttons. With no rumble pad and no DualSense (this machine) each is
    /// disabled and says why; with a DualSense — the paced sink's 4-channel `cabinhaptics`,
    /// where HapticsDeviceTests plays `haptics play --dualsense` — a press plays the pattern
    /// there: what the device was sent is the 4-channel render `haptics play --dualsense`
    /// sends (the haptics on channels 3–4). A press without the token is refused and plays
    /// nothing.
    @Test(.enabled(if: TestEnvironment.pacedSinkReady, Comment(rawValue: TestEnvironment.pacedSinkProblem)))
    func theDeviceButtonsSayWhyTheyCannotPlayAndPlayOnTheDualSense() throws {
        let pattern = ("p.ahap", StudioTests.pattern(times: [0.1, 0.2]))
        // No device: disabled, with the reason beside each button.
        try withStudio("cabin-studio-devices", files: [pattern], arguments: ["p.ahap"]) { _, bare, browser in
            let state = try devices(browser) { $0["dualsenseAvailable"] == "false" && $0["rumbleAvailable"] != "" }
            let pads = RumbleDevices.list().devices
            #expect(state["rumbleDisabled"] == String(pads.isEmpty) && state["rumble"] == "play on rumble pad", "\(state)")
            if pads.isEmpty {
                #expect(state["rumbleWhy"]?.hasPrefix("(no rumble pad") == true, "\(state)")
                #expect(bare.tool.stdout.contains("no rumble pad"), "\(bare.tool.stdout)")
            }
            #expect(state["dualsenseDisabled"] == "true" && state["dualsense"] == "play on DualSense", "\(state)")
            #expect(state["dualsenseWhy"] == "(no DualSense among the sound devices (name its audio with --dualsense, e.g. hw:CARD=Controller))", "\(state)")
        }

        // A DualSense: a press without the token (or with a wrong one) is refused, and nothing plays.
        let captured = try TestEnvironment.temporaryDirectory("cabin-studio-felt")
        defer { try? FileManager.default.removeItem(at: captured) }
        let capture = captured.appendingPathComponent("felt.wav")
        try withStudio("cabin-studio-dualsense", files: [pattern], arguments: ["p.ahap", "--dualsense", "cabinhaptics"],
                       environment: ["CABIN_SINK_HAPTICS_FILE": capture.path]) { dir, studio, browser in
        let file = dir.appendingPathComponent("p.ahap")
        let origin = "http://" + studio.url.dropFirst("http://".count).split(separator: "/")[0]
        for path in ["/play/0/dualsense", "/\(String(repeating: "0", count: 32))/play/0/dualsense"] {
            #expect(try HTTPClient.request(origin + path, method: "POST").status == 403, "\(path)")
        }
        #expect(try studio.get("play/0/dualsense").status != 200, "a GET is not a press")
        #expect(try studio.get("play/0/nothing").status == 404)
        Thread.sleep(forTimeInterval: 0.3)
        #expect(!FileManager.default.fileExists(atPath: capture.path), "nothing was played")
        #expect(studio.tool.stdout.contains("play on DualSense: cabinhaptics"), "\(studio.tool.stdout)")

        // The press in the page: played on the DualSense, and the page says so.
        var state = try devices(browser) { $0["dualsenseDisabled"] == "false" }
        #expect(state["dualsenseDisabled"] == "false" && state["dualsenseWhy"] == "", "\(state)")
        try browser.execute("document.querySelector('section.pattern[data-index=\"0\"] button.device[data-kind=\"dualsense\"]').click();")
        state = try devices(browser) { $0["deviceState"] == "played" || $0["deviceState"] == "refused" }
        #expect(state["deviceState"] == "played", "\(state)")
        #expect(state["message"]?.hasPrefix("played ") == true && state["message"]?.hasSuffix(" s of p.ahap on the DualSense (cabinhaptics)") == true, "\(state)")

        // What the device was sent: the 4-channel render, the haptics on channels 3–4.
        let read = HapticPatternFile.read(file.path, options: HapticReadOptions(), strength: .strong)
        var options = HapticAudioOptions()
        options.layout = .dualSense
        let pattern = try #require(read.pattern), compiled = try #require(read.compiled)
        let sent = try #require(HapticPatternFile.previewAudio(pattern, compiled, file: file.path, options: options).buffer)
        #expect(sent.channelCount == 4)
        let deadline = Date().addingTimeInterval(5)
        var felt = try? SoundFile.read(capture.path)
        while (felt?.frameCount ?? 0) < sent.frameCount && Date() < deadline {
            Thread.sleep(forTimeInterval: 0.05)
            felt = try? SoundFile.read(capture.path)
        }
        let got = try #require(felt)
        #expect(got.channelCount == 4 && got.frameCount >= sent.frameCount, "\(got.channelCount) × \(got.frameCount) frames")
        var worst = 0.0
        for i in 0..<min(sent.frameCount, got.frameCount) {
            for c in 0..<4 { worst = max(worst, abs(Double(got.samples[4 * i + c] - sent.samples[4 * i + c]))) }
        }
        #expect(worst < 1e-4, "what the DualSense got differs from the render by up to \(worst)")
        #expect(SignalAnalysis.peak((0..<sent.frameCount).map { sent.samples[4 * $0 + 2] }) > 0.1)
        }
    }

    /// What the session section shows of its player: the playhead's x (in the picture's
    /// pixels, as `session plot` maps time), the position and state from `player.json`, and
    /// the last reply's error.
    static let player = """
        const s = document.getElementById("session");
        return { x: s.dataset.playheadX || "", position: s.dataset.position || "", state: s.dataset.state || "",
                 reply: s.dataset.lastReply || "", message: s.querySelector(".player-message").textContent,
                 shown: s.querySelector(".position").textContent + " / " + s.querySelector(".duration").textContent,
                 playheadLeft: s.querySelector("div.playhead").style.left };
        """

    func player(_ browser: WebDriver, timeout: Double = 10, until condition: ([String: String]) -> Bool = { _ in true }) throws -> [String: String] {
        let deadline = Date().addingTimeInterval(timeout)
        var state: [String: String] = [:]
        repeat {
            state = (try browser.execute(Self.player) as? [String: Any] ?? [:]).mapValues { "\($0)" }
            if condition(state) { break }
            Thread.sleep(forTimeInterval: 0.02)
        } while Date() < deadline
        return state
    }

    /// Issue 30.2, a session playing in the studio (on the system clock: `-D none`): opened
    /// paused; ▶ play moves the playhead along the lanes and ⏸ pause holds it still; a bus's
    /// slider at −12 dB is what `cabin ctl status` says of that bus (the page's press is the
    /// control socket's command, and the studio serves that socket); a click halfway along
    /// the lanes goes to half the session, at the x `session plot` draws that time at; a bad
    /// value gets the socket's one-line error in the page; a POST without the token is
    /// refused (403) and changes nothing.
    @Test func aSessionPlaysInThePageWithItsPlayheadTransportAndBusVolumes() throws {
        let document = ControlSocketTests.session.replacingOccurrences(of: "DURATION", with: "8s")
        try withStudio("cabin-studio-player", files: [("s.json", document)],
                       arguments: ["s.json", "-D", "none", "--ipc", "control"]) { dir, studio, browser in
            let socket = dir.appendingPathComponent("control").path
            let session = try #require(try JSONSerialization.jsonObject(with: studio.get("session.json").body) as? [String: Any])
            let timeline = try #require(session["timeline"] as? [String: Double]), width = try #require(session["width"] as? Double)
            let buses = (session["player"] as? [String: Any])?["buses"] as? [String] ?? []
            #expect(Set(buses).isSuperset(of: ["engine", "radio"]), "\(session)")
            func x(_ t: Double) -> Double { timeline["x"]! + t / timeline["duration"]! * timeline["width"]! }

            // Opened paused at its start.
            var state = try player(browser) { $0["state"] == "paused" }
            #expect(state["state"] == "paused" && (Double(state["position"] ?? "") ?? 9) < 0.5, "\(state)")
            #expect(studio.tool.stdout.contains("session: plays on -D none"), "\(studio.tool.stdout)")

            // ▶ play: the playhead moves right, at session plot's x of the position.
            try browser.execute("document.querySelector('#session button.play').click();")
            state = try player(browser) { $0["state"] == "playing" && (Double($0["position"] ?? "") ?? 0) > 0.3 }
            let x1 = Double(state["x"] ?? "") ?? 0
            #expect(abs(x1 - x(Double(state["position"] ?? "") ?? -1)) < 1e-6, "\(state)")
            Thread.sleep(forTimeInterval: 0.8)
            state = try player(browser)
            let x2 = Double(state["x"] ?? "") ?? 0
            #expect(x2 > x1 + 0.5 * timeline["width"]! / timeline["duration"]! * 0.5, "the playhead moved: \(x1) -> \(x2)")

            // ⏸ pause: it holds still.
            try browser.execute("document.querySelector('#session button.pause').click();")
            state = try player(browser) { $0["state"] == "paused" }
            Thread.sleep(forTimeInterval: 0.3)
            let held = try player(browser)["x"]
            Thread.sleep(forTimeInterval: 0.8)
            state = try player(browser)
            #expect(state["state"] == "paused" && state["x"] == held, "\(state) after \(held ?? "")")

            // A bus's slider at -12 dB: the player says so, through the control socket.
            try browser.execute("delete document.getElementById('session').dataset.lastReply; const s = document.querySelector('#session input[data-bus=\"radio\"][type=range]'); s.value = '-12'; s.dispatchEvent(new Event('change'));")
            state = try player(browser) { $0["reply"] == "success" }
            var ctl = try ExternalTool.cabin(["ctl", "--ipc", socket, "--json", "status"])
            var status = try #require(try JSONSerialization.jsonObject(with: Data(ctl.stdout.utf8)) as? [String: Any], "\(ctl.stdout)\(ctl.stderr)")
            var volumes = (status["volume"] as? [String: Any])?["buses"] as? [String: Any]
            #expect(volumes?["radio"] as? Double == -12 && volumes?["engine"] as? Double == 0, "\(status)")

            // A click halfway along the lanes: half the session, at that x.
            let click = """
                const img = document.querySelector('#session img.lanes'), r = img.getBoundingClientRect();
                img.dispatchEvent(new MouseEvent('click', { bubbles: true, clientX: r.left + arguments[0] / arguments[1] * r.width, clientY: r.top + r.height / 2 }));
                """
            try browser.execute(click, [x(4), width])
            state = try player(browser) { abs((Double($0["position"] ?? "") ?? 0) - 4) < 0.25 }
            #expect(abs((Double(state["position"] ?? "") ?? 0) - 4) < 0.25 && state["state"] == "paused", "\(state)")
            #expect(abs((Double(state["x"] ?? "") ?? 0) - x(4)) < timeline["width"]! / timeline["duration"]! * 0.25, "\(state)")

            // A bad value: the socket's one-line error, in the page.
            try browser.execute("const s = document.querySelector('#session input.seek'); s.value = 'soon'; s.dispatchEvent(new Event('change'));")
            state = try player(browser) { !($0["message"] ?? "").isEmpty }
            #expect(state["message"]?.hasPrefix("seek: \"soon\" is not a time") == true, "\(state)")

            // Without the token (or with another): refused, and nothing changes.
            let origin = "http://" + studio.url.dropFirst("http://".count).split(separator: "/")[0]
            for path in ["/control", "/\(String(repeating: "0", count: 32))/control"] {
                let refused = try HTTPClient.request(origin + path, method: "POST", json: ["command": ["volume", "radio", "0dB"]])
                #expect(refused.status == 403, "\(path)")
            }
            let got = try studio.get("control").status
            #expect(got == 404 || got == 405, "a GET is not a command: \(got)")
            ctl = try ExternalTool.cabin(["ctl", "--ipc", socket, "--json", "status"])
            status = try #require(try JSONSerialization.jsonObject(with: Data(ctl.stdout.utf8)) as? [String: Any], "\(ctl.stdout)")
            volumes = (status["volume"] as? [String: Any])?["buses"] as? [String: Any]
            #expect(volumes?["radio"] as? Double == -12, "\(status)")
        }
    }
}
