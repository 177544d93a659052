import CabinAudio
import CabinIO
import CabinPlayback
import Synchronization

/// One live stream feeding one `AudioStream`: connects with libcurl, takes the ICY metadata
/// out, finds the format, decodes (Ogg Opus, Ogg Vorbis, MP3), resamples to the session's
/// rate with soxr and writes to the stream ring through `RadioBuffer`'s live-stream policy —
/// all on its own thread, so the render thread never waits on the network (it plays silence
/// for frames that have not arrived).
///
/// Pace: a connection is read no further ahead of real time than `aheadSeconds` of audio
/// (from its start); beyond, its transfer is paused and TCP slows the server — a static
/// file or a faster-than-real-time server costs what a live stream does, not a core.
///
/// Failures: before any audio has played, a failure is reported once as `.error` and the
/// station stops (its layers stay silent, the session plays on). Once it has played, a
/// dropped or stalled connection (less than 1 byte/s for 4 s), or one whose bytes gave less
/// than half as much audio as time passed over `noAudioSeconds` (a trickle, or garbage after
/// valid audio; no audio at all before its first), reconnects with
/// `ReconnectBackoff` (1 s doubling to 30 s; back to 1 s only after a connection stayed up
/// `steadySeconds` with audio), each attempt reported as `.reconnect`, and the audio fades
/// back in. A stream that ends is named a file when the server sent its length.
///
/// Thread: `start`, `stop`, `takeEvents` and `status` on the control thread; the work on its own.
final class RadioStation: @unchecked Sendable {
    // @unchecked Sendable: the loop's state lives on its thread; the control side reaches
    // only `worker` and `ready`.
    let url: String
    let stream: AudioStream
    let sampleRate: Double
    /// Whether audio waits at the live edge until a voice plays the stream (see `RadioBuffer.step`).
    let waitsForListener: Bool
    private let worker: StationWorker
    /// About a second is buffered (waiting for a listener, or playing), or the station failed.
    private let ready = Atomic<Bool>(false)

    init(url: String, stream: AudioStream, sampleRate: Double, waitsForListener: Bool = true) {
        self.url = url
        self.waitsForListener = waitsForListener
        self.stream = stream
        self.sampleRate = sampleRate
        worker = StationWorker(status: RadioStatus(url: url, state: .connecting))
    }

    func start() throws(SystemError) { try worker.start(name: "cabin-radio") { [self] in run() } }

    /// Stops the station (within about 20 ms) and waits for its thread.
    func stop() { worker.stop() }

    /// Whether the station has its first second buffered (or is playing), or has failed:
    /// a recording can start (`RadioStations.waitUntilBuffered`).
    var isReady: Bool { ready.load(ordering: .relaxed) }

    func takeEvents() -> [RadioEvent] { worker.takeEvents() }
    var status: RadioStatus { worker.status }

    private func post(_ event: RadioEvent, _ update: (inout RadioStatus) -> Void = { _ in }) { worker.post(event, update) }

    /// How far ahead of real time a connection is read (audio seconds past its wall-clock age).
    static let aheadSeconds = 10.0
    /// The span over which a connection must give at least half as much audio as time passed.
    static let noAudioSeconds = 10.0
    /// A connection up this long with audio resets the backoff.
    static let steadySeconds = 30.0

    /// One connection's state.
    private struct Connection {
        var http: HTTPStreamConnection
        var icy: ICYStreamReader?
        var head: [UInt8] = []
        var codec: RadioCodec?
        var resampler: StreamingResampler?
        var resamplerRate = 0.0
        var startedAt: Double
        /// Seconds of audio decoded on this connection.
        var audioSeconds = 0.0
        /// Body bytes received on this connection.
        var bytes = 0
        /// Where the span checked for enough audio started (its time, audio and bytes): the
        /// connection's start, its first audio, or the last pause.
        var window: (at: Double, audio: Double, bytes: Int)

        init(http: HTTPStreamConnection, at now: Double) {
            self.http = http
            startedAt = now
            window = (now, 0, 0)
        }
    }

    private static func now() -> Double { MonotonicClock.seconds() }

    private func run() {
        var backoff = ReconnectBackoff()
        var buffer = RadioBuffer(sampleRate: sampleRate)
        var connection: Connection?
        var hasPlayed = false
        var retryAt: Double? = Self.now()
        var lastTitle: String?
        var isHeard = false
        post(.buffering(url: url, reason: "connecting"))
        while worker.isRunning {
            if connection == nil, let at = retryAt, Self.now() >= at {
                retryAt = nil
                do {
                    connection = Connection(http: try HTTPStreamConnection(url: url, userAgent: "Cabin/radio"), at: Self.now())
                } catch {
                    post(.error(url: url, message: "\(error)")) { $0.state = .failed }
                    ready.store(true, ordering: .relaxed)
                    return
                }
            }
            var failure: RadioFailure?
            if var c = connection {
                let now = Self.now()
                c.http.isPaused = c.audioSeconds > now - c.startedAt + Self.aheadSeconds
                if c.http.isPaused { c.window = (now, c.audioSeconds, c.bytes) }
                if now - c.startedAt >= Self.steadySeconds && c.audioSeconds > 0 { backoff.reset() }
                let step = c.http.pump(timeoutMilliseconds: 10)
                do throws(RadioFailure) {
                    let titles = try consume(step.bytes, ended: step.ending?.isClosedByServer == true, connection: &c,
                                             buffer: &buffer)
                    // A station's title is one line of at most 256 characters (a metadata block
                    // holds up to 4080 bytes, newlines and escapes included).
                    for title in titles.map({ $0.singleLine() }) where title != lastTitle && !title.isEmpty {
                        lastTitle = title
                        post(.title(url: url, title: title)) { $0.title = title }
                    }
                } catch { failure = error }
                // A failed transfer is reported as itself, not as what its missing bytes look like.
                if let ending = step.ending, failure == nil || !ending.isClosedByServer {
                    failure = RadioFailure(description: Self.describe(ending, connection: c), isPermanent: !hasPlayed)
                }
                if failure == nil, let why = Self.tooLittleAudio(&c, now: Self.now()) { failure = RadioFailure(description: why) }
                connection = c
            } else {
                ThreadSleep.microseconds(10_000)
            }
            let codec = connection?.codec
            let canConceal = sampleRate == OpusPacketDecoder.sampleRate  // PLC comes at Opus's own rate
            // Heard once a voice has played the stream (frames played, or missed as underflow).
            isHeard = isHeard || !waitsForListener || stream.playedFrames > 0 || stream.underflowFrames > 0
            let transition = buffer.step(stream, isHeard: isHeard) { frames in
                var made: [Float] = []
                if canConceal { _ = codec?.conceal(frames: frames, into: &made) }
                return made
            }
            switch transition {
            case .started, .resumed:
                hasPlayed = true
                let c = connection
                let name = c.flatMap { ICYStreamReader.stationName($0.http.headers) }
                let seconds = c.map { Self.now() - $0.startedAt } ?? 0
                post(.playing(url: url, name: name, codec: c?.codec?.name ?? "", seconds: seconds)) {
                    $0.state = .playing
                    $0.name = name
                    $0.codec = c?.codec?.name
                }
            case .starved:
                post(.buffering(url: url, reason: connection == nil ? "disconnected" : "the stream ran dry")) {
                    if $0.state == .playing { $0.state = .buffering }
                }
            case nil: break
            }
            if !ready.load(ordering: .relaxed)
                && (buffer.state == .playing || buffer.pendingFrames >= Int(buffer.highWaterSeconds * sampleRate)) {
                ready.store(true, ordering: .relaxed)
            }
            if let failure {
                // A connection that gave audio before anything played it (a short file sent at
                // once) is retried like one that played: the layer may play it next time.
                let gaveAudio = (connection?.audioSeconds ?? 0) > 0
                connection?.http.close()
                connection = nil
                buffer.connectionEnded(stream)
                if !hasPlayed && !gaveAudio {
                    post(.error(url: url, message: failure.description)) { $0.state = .failed }
                    ready.store(true, ordering: .relaxed)
                    return
                }
                let delay = backoff.next()
                retryAt = Self.now() + delay
                post(.reconnect(url: url, attempt: backoff.attempts, delay: delay, reason: failure.description)) {
                    $0.state = .reconnecting
                }
            }
        }
        connection?.http.close()
    }

    /// Takes one pump's bytes through ICY, format detection, the codec and the resampler into
    /// `buffer`; returns the titles found.
    private func consume(_ bytes: [UInt8], ended: Bool, connection c: inout Connection,
                         buffer: inout RadioBuffer) throws(RadioFailure) -> [String] {
        guard !bytes.isEmpty || ended else { return [] }
        c.bytes += bytes.count
        if c.icy == nil { c.icy = ICYStreamReader(metaInterval: ICYStreamReader.metaInterval(c.http.headers)) }
        var (audio, titles) = c.icy!.split(bytes)
        if c.codec == nil {
            c.head += audio
            guard let format = RadioFormat.detect(contentType: ICYStreamReader.value("content-type", in: c.http.headers),
                                                  head: c.head, isComplete: ended) else { return titles }
            switch format {
            case .notPlayable(let why): throw RadioFailure(description: why)
            case .format(.ogg): c.codec = OggRadioCodec()
            case .format(.mp3): c.codec = try MP3RadioCodec()
            }
            audio = c.head
            c.head = []
        }
        var decoded: [Float] = []
        titles += try c.codec!.decode(audio, into: &decoded)
        guard !decoded.isEmpty else { return titles }
        let rate = c.codec!.sampleRate
        if c.audioSeconds == 0 { c.window = (Self.now(), 0, c.bytes) }  // the first audio: the span starts
        if rate > 0 { c.audioSeconds += Double(decoded.count / 2) / rate }
        if rate == sampleRate || rate <= 0 {
            buffer.append(decoded)
        } else {
            if c.resampler == nil || c.resamplerRate != rate {
                do { c.resampler = try StreamingResampler(from: rate, to: sampleRate, channels: 2) } catch {
                    throw RadioFailure(description: "\(error)")
                }
                c.resamplerRate = rate
            }
            do {
                try decoded.withUnsafeBufferPointer { input throws(SystemError) in
                    try c.resampler!.process(input.baseAddress!, frames: input.count / 2) { buffer.append($0) }
                }
            } catch { throw RadioFailure(description: "\(error)") }
        }
        return titles
    }

    /// One line when `c`'s last `noAudioSeconds` (unpaused) gave less than half as much audio
    /// as time passed — before its first audio, none at all: a trickle (a stall above
    /// libcurl's 1 byte/s) or bytes the codec cannot decode (garbage after audio). Else
    /// nil, starting the next span when this one is complete.
    private static func tooLittleAudio(_ c: inout Connection, now: Double) -> String? {
        let span = now - c.window.at
        guard span >= noAudioSeconds else { return nil }
        let audio = c.audioSeconds - c.window.audio, bytes = c.bytes - c.window.bytes
        guard c.audioSeconds == 0 || audio < span / 2 else {
            c.window = (now, c.audioSeconds, c.bytes)
            return nil
        }
        let seconds = String(cFormat: "%.0f s", span), gave = String(cFormat: "%.1f s", audio)
        if bytes < 4096 { return "the server sent only \(bytes) bytes in \(seconds) (\(gave) of audio): the stream stalled" }
        return "\(bytes / 1024) KB in the last \(seconds) gave \(gave) of \(c.codec?.name ?? "audio"): the stream is damaged"
    }

    /// One line for how a transfer ended.
    private static func describe(_ ending: HTTPStreamConnection.Ending, connection c: Connection) -> String {
        guard ending.isClosedByServer else { return describe(ending) }
        let audio = String(cFormat: "%.1f s of audio", c.audioSeconds)
        if let length = c.http.header("content-length").flatMap({ Int($0) }) {  // a number: nothing of the server's text
            return "the server sent a file (\(audio), \(length) bytes), not a live stream, and ended it"
        }
        return "the server closed the stream after \(audio)"
    }

    /// One line for how a transfer ended.
    static func describe(_ ending: HTTPStreamConnection.Ending) -> String {
        if ending.isHTTPError && ending.status > 0 { return "HTTP \(ending.status) from the server" }
        if ending.isStall { return "the server sent nothing for 4 s (\(ending.message))" }
        if ending.isRedirectLoop { return "too many redirects (a redirect loop?): \(ending.message)" }
        if ending.isTLSFailure {
            let hint = ending.isCertificateRejected
                ? " (to trust a station's own certificate, name its PEM file in CURL_CA_BUNDLE)" : ""
            return "TLS failed: \(ending.message)\(hint)"
        }
        return ending.message
    }
}
