import Foundation
import Glibc

/// Debian's icecast2 on 127.0.0.1, on a free port, with a config written for the test, fed
/// by ffmpeg as a real source client (`icecast://`). Tests skip with `problem` when icecast2
/// or ffmpeg is not installed.
public final class IcecastServer: @unchecked Sendable {
    /// Why the radio tests cannot run here, or nil.
    public static let problem: String? = {
        if ExternalTool.which("icecast2") == nil { return "needs Debian's icecast2 (scripts/install-deps installs it)" }
        if ExternalTool.which("ffmpeg") == nil { return "needs ffmpeg as the Icecast source client" }
        return nil
    }()

    public let port: Int
    /// The HTTPS port (`init(tls: true)`), or 0.
    public let tlsPort: Int
    public let directory: URL
    /// The server's self-signed certificate (PEM, for 127.0.0.1), when it serves HTTPS.
    public var certificatePath: String { directory.appendingPathComponent("cert.pem").path }
    private var server: Process?
    private var sources: [String: Process] = [:]
    public static let password = "cabin-test"

    /// `tls`: also serve HTTPS on `tlsPort`, with a self-signed certificate for 127.0.0.1
    /// made here by openssl (Debian's icecast2 is built with OpenSSL).
    public init(tls: Bool = false) throws {
        port = IcecastServer.freePort()
        tlsPort = tls ? IcecastServer.freePort() : 0
        directory = try TestEnvironment.temporaryDirectory("cabin-icecast")
        chmod(directory.path, 0o777)  // icecast drops root for nobody and writes its logs here
        var tlsSocket = "", tlsPath = ""
        if tls {
            let key = directory.appendingPathComponent("key.pem").path, both = directory.appendingPathComponent("icecast.pem").path
            let made = try ExternalTool.run("openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
                                                        "-keyout", key, "-out", certificatePath, "-subj", "/CN=127.0.0.1",
                                                        "-addext", "subjectAltName=IP:127.0.0.1"])
            guard made.status == 0 else { throw ExternalTool.Failure(command: ["openssl", "req"], result: made) }
            let pem = try String(contentsOfFile: certificatePath, encoding: .utf8) + String(contentsOfFile: key, encoding: .utf8)
            try pem.write(toFile: both, atomically: true, encoding: .utf8)
            for file in [key, both, certificatePath] { chmod(file, 0o644) }
            tlsSocket = "<listen-socket><port>\(tlsPort)</port><bind-address>127.0.0.1</bind-address><ssl>1</ssl></listen-socket>"
            tlsPath = "<ssl-certificate>\(both)</ssl-certificate>"
        }
        let owner = getuid() == 0
            ? "<security><chroot>0</chroot><changeowner><user>nobody</user><group>nogroup</group></changeowner></security>" : ""
        let config = """
            <icecast>
              <limits><clients>50</clients><sources>8</sources><burst-size>65536</burst-size>
                <source-timeout>10</source-timeout></limits>
              <authentication><source-password>\(Self.password)</source-password>
                <admin-user>admin</admin-user><admin-password>\(Self.password)</admin-password></authentication>
              <hostname>127.0.0.1</hostname>
              <listen-socket><port>\(port)</port><bind-address>127.0.0.1</bind-address></listen-socket>\(tlsSocket)
              <fileserve>0</fileserve>\(owner)
              <paths><basedir>\(directory.path)</basedir><logdir>\(directory.path)</logdir>\(tlsPath)</paths>
              <logging><accesslog>access.log</accesslog><errorlog>error.log</errorlog><loglevel>2</loglevel></logging>
            </icecast>
            """
        try config.write(to: directory.appendingPathComponent("icecast.xml"), atomically: true, encoding: .utf8)
        try startServer()
    }

    deinit { stop() }

    public func url(_ mount: String) -> String { "http://127.0.0.1:\(port)/\(mount)" }
    /// The mount over HTTPS (a server made with `tls: true`).
    public func httpsURL(_ mount: String) -> String { "https://127.0.0.1:\(tlsPort)/\(mount)" }

    /// Starts icecast2 and waits until it accepts connections.
    public func startServer() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ExternalTool.which("icecast2")!)
        process.arguments = ["-c", directory.appendingPathComponent("icecast.xml").path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        server = process
        try wait(until: "icecast2 on port \(port)") {
            IcecastServer.accepts(port: self.port) && (self.tlsPort == 0 || IcecastServer.accepts(port: self.tlsPort))
        }
    }

    /// Kills icecast2 at once (SIGKILL), as a crash would.
    public func killServer() {
        guard let server else { return }
        kill(server.processIdentifier, SIGKILL)
        server.waitUntilExit()
        self.server = nil
    }

    public enum Codec: String, Sendable, CaseIterable {
        case opus, mp3, vorbis
        var arguments: [String] {
            switch self {
            // Ogg pages of 200 ms at most (ffmpeg's default is 1 s), as stations flush them.
            case .opus: ["-c:a", "libopus", "-b:a", "96k", "-content_type", "application/ogg", "-page_duration", "200000", "-f", "ogg"]
            case .mp3: ["-c:a", "libmp3lame", "-b:a", "128k", "-content_type", "audio/mpeg", "-f", "mp3"]
            case .vorbis: ["-c:a", "libvorbis", "-b:a", "128k", "-content_type", "application/ogg", "-page_duration", "200000", "-f", "ogg"]
            }
        }
        /// Opus is always 48 kHz; the others are sent at 44.1 kHz, so the player resamples.
        public var sampleRate: Int { self == .opus ? 48_000 : 44_100 }
    }

    /// Starts ffmpeg sending a `frequency` Hz sine (amplitude 1/8, both channels) to `mount`
    /// in real time, and waits until the mount is live. On a loaded 2-core machine ffmpeg can
    /// take seconds to start or lose its first connection: an ffmpeg that exits before the
    /// mount is live is started again (three tries), and a failure says what ffmpeg said.
    public func startSource(_ codec: Codec, mount: String, frequency: Double = 1000, name: String? = nil) throws {
        let log = directory.appendingPathComponent("ffmpeg-\(mount).log")
        var lastError = ""
        for _ in 0..<3 {
            _ = FileManager.default.createFile(atPath: log.path, contents: nil)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: ExternalTool.which("ffmpeg")!)
            process.arguments = ["-hide_banner", "-loglevel", "error", "-re", "-f", "lavfi",
                                 "-i", "sine=frequency=\(frequency):sample_rate=\(codec.sampleRate)", "-ac", "2"]
                + codec.arguments + (name.map { ["-ice_name", $0] } ?? [])
                + ["icecast://source:\(Self.password)@127.0.0.1:\(port)/\(mount)"]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = try FileHandle(forWritingTo: log)
            process.standardInput = FileHandle.nullDevice
            try process.run()
            sources[mount] = process
            // Live once it serves audio past the headers, or 5 s after it first answered 200
            // (a slow encoder on a loaded machine is still a live mount).
            var answered: Date?
            try wait(until: "the \(mount) mount", timeout: 30) {
                guard process.isRunning else { return true }
                let (status, bytes) = self.probe(mount)
                if status == 200 && answered == nil { answered = Date() }
                return status == 200 && (bytes > 8192 || Date().timeIntervalSince(answered!) > 5)
            }
            if process.isRunning { return }
            lastError = ((try? String(contentsOf: log, encoding: .utf8)) ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
            sources[mount] = nil
            usleep(200_000)
        }
        throw TimeoutError(description: "ffmpeg could not feed the \(mount) mount (three tries): \(lastError)")
    }

    /// Pauses (SIGSTOP) or resumes (SIGCONT) the source of `mount`.
    public func pauseSource(_ mount: String, _ paused: Bool) {
        if let p = sources[mount] { kill(p.processIdentifier, paused ? SIGSTOP : SIGCONT) }
    }

    public func stopSource(_ mount: String) {
        guard let p = sources.removeValue(forKey: mount) else { return }
        kill(p.processIdentifier, SIGCONT)
        kill(p.processIdentifier, SIGKILL)
        p.waitUntilExit()
    }

    /// Sets the title listeners see (ICY `StreamTitle`), through Icecast's admin interface.
    public func setTitle(_ title: String, mount: String) throws {
        let song = title.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
        let result = try ExternalTool.run("curl", ["-sf", "-u", "admin:\(Self.password)",
                                                   "http://127.0.0.1:\(port)/admin/metadata?mount=/\(mount)&mode=updinfo&song=\(song)"])
        guard result.status == 0 else { throw ExternalTool.Failure(command: ["curl", "admin/metadata"], result: result) }
    }

    public func stop() {
        for mount in Array(sources.keys) { stopSource(mount) }
        killServer()
        try? FileManager.default.removeItem(at: directory)
    }

    /// Whether `mount` is being served (a GET gets a 200).
    public func isLive(_ mount: String) -> Bool { probe(mount).status == 200 }

    /// A GET of `mount` for 1.5 s: the HTTP status and the bytes that came.
    func probe(_ mount: String) -> (status: Int, bytes: Int) {
        guard let reply = try? ExternalTool.run("curl", ["-s", "-o", "/dev/null", "-w", "%{http_code} %{size_download}",
                                                         "-m", "1.5", url(mount)]).stdout else { return (0, 0) }
        let fields = reply.split(separator: " ")
        return fields.count == 2 ? (Int(fields[0]) ?? 0, Int(fields[1]) ?? 0) : (0, 0)
    }

    private func wait(until what: String, timeout: Double = 10, _ condition: () -> Bool) throws {
        let end = Date().addingTimeInterval(timeout)
        while !condition() {
            if Date() > end { throw TimeoutError(description: "\(what) did not come up in \(timeout) s") }
            usleep(50_000)
        }
    }

    public struct TimeoutError: Error, CustomStringConvertible { public var description: String }

    /// A port on 127.0.0.1 that was free a moment ago.
    public static func freePort() -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } }
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    static func accepts(port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        } == 0
    }
}
