import Foundation

/// A real headless Chromium driven over WebDriver (W3C, chromedriver's HTTP API, through
/// `HTTPClient.plainRequest`): Debian's
/// `chromium` and `chromium-driver`. Tests that need it are enabled only when both are
/// installed (`WebDriver.available`); CI installs them (scripts/install-deps).
public final class WebDriver {
    public static let chromium = "/usr/bin/chromium"
    public static let chromedriver = "/usr/bin/chromedriver"

    /// Whether Chromium and chromedriver are installed.
    public static var available: Bool {
        FileManager.default.isExecutableFile(atPath: chromium) && FileManager.default.isExecutableFile(atPath: chromedriver)
    }

    private let driver: RunningTool
    private let base: String
    private let session: String
    private let profile: URL
    private var ended = false

    /// Starts chromedriver on a free port and a headless Chromium session through it.
    public init() throws {
        let port = IcecastServer.freePort()
        driver = try RunningTool(Self.chromedriver, ["--port=\(port)"])
        base = "http://127.0.0.1:\(port)"
        profile = try TestEnvironment.temporaryDirectory("cabin-chromium")
        // Wait for the driver to answer.
        let deadline = Date().addingTimeInterval(20)
        var last = ""
        while true {
            do {
                let status = try HTTPClient.plainRequest(base + "/status", timeout: 2)
                if status.status == 200 { break }
                last = "\(status.status) \(status.text)"
            } catch { last = "\(error)" }
            guard Date() < deadline else { throw HTTPClient.Failure(description: "chromedriver did not answer on port \(port): \(last)") }
            Thread.sleep(forTimeInterval: 0.05)
        }
        let capabilities: [String: Any] = ["capabilities": ["alwaysMatch": [
            "browserName": "chrome",
            "goog:chromeOptions": [
                "binary": Self.chromium,
                "args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--mute-audio",
                         "--autoplay-policy=no-user-gesture-required", "--no-first-run", "--window-size=1200,900",
                         "--user-data-dir=\(profile.path)"],
            ],
        ]]]
        let created = try HTTPClient.plainRequest(base + "/session", method: "POST", json: capabilities, timeout: 60)
        guard let value = (try? JSONSerialization.jsonObject(with: created.body) as? [String: Any])?["value"] as? [String: Any],
              let id = value["sessionId"] as? String else {
            _ = driver.interrupt()
            throw HTTPClient.Failure(description: "no WebDriver session: \(created.text)")
        }
        session = id
    }

    /// Loads `url` (waits for the document to load).
    public func open(_ url: String) throws {
        _ = try command("url", ["url": url])
    }

    /// Runs `script` (a function body: `return …`) in the page; its value, as JSON gives it.
    @discardableResult
    public func execute(_ script: String, _ arguments: [Any] = []) throws -> Any? {
        try command("execute/sync", ["script": script, "args": arguments])
    }

    /// Evaluates `script` every 20 ms (at most `timeout` s) until `condition` holds for its
    /// value; the last value.
    public func wait(_ script: String, timeout: Double = 10, until condition: (Any?) -> Bool) throws -> Any? {
        let deadline = Date().addingTimeInterval(timeout)
        var value = try execute(script)
        while !condition(value) && Date() < deadline {
            Thread.sleep(forTimeInterval: 0.02)
            value = try execute(script)
        }
        return value
    }

    private func command(_ path: String, _ body: [String: Any]) throws -> Any? {
        let response = try HTTPClient.plainRequest("\(base)/session/\(session)/\(path)", method: "POST", json: body)
        let object = try JSONSerialization.jsonObject(with: response.body) as? [String: Any]
        guard response.status == 200 else { throw HTTPClient.Failure(description: "WebDriver \(path): \(response.text)") }
        let value = object?["value"]
        return value is NSNull ? nil : value
    }

    /// Ends the session and the driver.
    public func quit() {
        guard !ended else { return }
        ended = true
        _ = try? HTTPClient.plainRequest("\(base)/session/\(session)", method: "DELETE", timeout: 10)
        _ = driver.interrupt(timeout: 5)
        try? FileManager.default.removeItem(at: profile)
    }

    deinit { quit() }
}
