import CabinJSON
import CabinPlayback
import CabinRemote
import Dispatch
import Hummingbird
import Logging

extension Studio {
    /// Serves the page on 127.0.0.1:`port` (0: a free port the system chooses) until the
    /// task is cancelled; `running` is called once with the page's address
    /// (`http://127.0.0.1:PORT/TOKEN/`).
    ///
    /// Routes, all under `/TOKEN/` (anything else is 403, an unknown name under it 404):
    /// the page (`/TOKEN/`, `studio.js`, `studio.css`), every pattern's JSON
    /// (`patterns.json`), a pattern's sound (`audio/N.wav`), and the pages' events
    /// (`events`: server-sent events, every pattern first, then each new version), the device
    /// buttons (`devices.json`), and a press of one (`POST play/N/rumble`, `POST
    /// play/N/dualsense`: plays pattern N on that device, answering when it has played, with
    /// `{"played": …, "message": …}`), a session's lanes (`session.json`: its title, where
    /// the timeline is in the picture and its player's buses, or null; `session.svg`:
    /// `session plot`'s picture), and its player: `player.json` (`cabin ctl status --json`'s
    /// object) and `POST control` (a control-socket request line, `{"command": ["pause"]}`,
    /// answered with the socket's reply line: 200 when it succeeded, 422 with its one-line
    /// `error` otherwise).
    public func serve(port: Int, running: @escaping @Sendable (String) -> Void) async throws {
        let router = Router()
        router.add(middleware: StudioGate(token: token))
        let page = router.group(RouterPath(token.text))
        let feed = self.feed, token = self.token
        page.get { request, _ -> Response in
            // The page's relative addresses need the slash: `/TOKEN` is sent to `/TOKEN/`.
            if !request.uri.path.hasSuffix("/") {
                return Response(status: .seeOther, headers: [.location: "/\(token.text)/"])
            }
            return Self.text(StudioPage.html, type: "text/html; charset=utf-8")
        }
        page.get("studio.js") { _, _ in Self.text(StudioPage.script, type: "text/javascript; charset=utf-8") }
        page.get("studio.css") { _, _ in Self.text(StudioPage.style, type: "text/css; charset=utf-8") }
        page.get("patterns.json") { _, _ in Self.text(feed.patternsJSON, type: "application/json") }
        page.get("audio/:file") { _, context -> Response in
            let file = context.parameters.get("file") ?? ""
            guard file.hasSuffix(".wav"), let index = Int(file.dropLast(4)), let wav = feed.wav(index) else {
                return Response(status: .notFound, headers: Self.headers("text/plain; charset=utf-8"),
                                body: ResponseBody(byteBuffer: ByteBuffer(string: "no such sound\n")))
            }
            return Response(status: .ok, headers: Self.headers("audio/wav"), body: ResponseBody(byteBuffer: ByteBuffer(bytes: wav)))
        }
        let session = options.session
        let sessionJSON = session?.json ?? .null
        page.get("session.json") { _, _ in Self.text(sessionJSON.serialized(pretty: false), type: "application/json") }
        let player = session?.player
        page.get("player.json") { _, _ -> Response in
            guard let player else { return Self.notFound("no session plays here\n") }
            return Self.text(player.status, type: "application/json")
        }
        page.post("control") { request, _ -> Response in
            guard let player else { return Self.notFound("no session plays here\n") }
            guard let body = try? await request.body.collect(upTo: ControlServer.maximumLineBytes) else {
                return Response(status: .contentTooLarge, headers: Self.headers("text/plain; charset=utf-8"),
                                body: ResponseBody(byteBuffer: ByteBuffer(string: "request too long\n")))
            }
            let answer = player.answer(Array(body.readableBytesView))
            return Response(status: answer.succeeded ? .ok : .unprocessableContent, headers: Self.headers("application/json"),
                            body: ResponseBody(byteBuffer: ByteBuffer(string: answer.reply)))
        }
        page.get("session.svg") { _, _ -> Response in
            guard let session else {
                return Response(status: .notFound, headers: Self.headers("text/plain; charset=utf-8"),
                                body: ResponseBody(byteBuffer: ByteBuffer(string: "no session\n")))
            }
            return Self.text(session.svg, type: "image/svg+xml")
        }
        let devices = options.devices.json.serialized(pretty: false)
        page.get("devices.json") { _, _ in Self.text(devices, type: "application/json") }
        page.post("play/:index/:kind") { [self] _, context -> Response in
            guard let index = context.parameters.get("index").flatMap({ Int($0) }),
                  let kind = context.parameters.get("kind").flatMap(StudioDevices.Kind.init(rawValue:)) else {
                return Response(status: .notFound, headers: Self.headers("text/plain; charset=utf-8"),
                                body: ResponseBody(byteBuffer: ByteBuffer(string: "no such pattern or device\n")))
            }
            // Playing waits for the device: on a thread of its own, not on the event loop.
            let outcome = await withCheckedContinuation { continuation in
                DispatchQueue.global().async { continuation.resume(returning: self.play(index, on: kind)) }
            }
            let body = JSONValue.object([("played", .bool(outcome.played)), ("message", .string(outcome.message))])
            return Response(status: outcome.played ? .ok : .conflict, headers: Self.headers("application/json"),
                            body: ResponseBody(byteBuffer: ByteBuffer(string: body.serialized(pretty: false))))
        }
        page.get("events") { _, _ -> Response in
            let events = feed.listen()
            return Response(status: .ok, headers: Self.headers("text/event-stream"), body: ResponseBody { writer in
                for await event in events { try await writer.write(ByteBuffer(string: event)) }
                try await writer.finish(nil)
            })
        }
        var logger = Logger(label: "cabin-studio")
        logger.logLevel = .critical
        let app = Application(
            router: router,
            configuration: ApplicationConfiguration(address: .hostname("127.0.0.1", port: port), serverName: nil),
            onServerRunning: { channel in
                running("http://127.0.0.1:\(channel.localAddress?.port ?? port)/\(token.text)/")
            },
            logger: logger)
        try await app.run()
    }

    static func headers(_ type: String) -> HTTPFields {
        [.contentType: type, .cacheControl: "no-store", .init("X-Content-Type-Options")!: "nosniff",
         .init("Referrer-Policy")!: "no-referrer",
         // Only the page's own script, style, sound and connections: a value that got
         // into the page as markup still could not run or load anything.
         .init("Content-Security-Policy")!: "default-src 'none'; script-src 'self'; style-src 'self'; media-src 'self'; connect-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"]
    }

    static func notFound(_ message: String) -> Response {
        Response(status: .notFound, headers: headers("text/plain; charset=utf-8"), body: ResponseBody(byteBuffer: ByteBuffer(string: message)))
    }

    static func text(_ body: String, type: String) -> Response {
        Response(status: .ok, headers: headers(type), body: ResponseBody(byteBuffer: ByteBuffer(string: body)))
    }
}

/// Refuses every request whose path does not start with the token (403, no body that
/// says why), before any route is looked at.
struct StudioGate<Context: RequestContext>: RouterMiddleware {
    let token: StudioToken

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let first = request.uri.path.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: true).first ?? ""
        guard token.matches(first) else { return Response(status: .forbidden) }
        return try await next(request, context)
    }
}
