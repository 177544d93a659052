import FoundationEssentials
import CabinOutput

extension PlayerEvent {
    /// The event as one JSON line, as `cabin play --json` prints it, the control socket's
    /// `observe` streams it and the C library's `cabin_player_poll` returns it:
    /// `{"event":"mark","name":"rest","time":1500,"title":"rest stop"}`, keys sorted, members
    /// that do not apply left out. `title` is the session's, written in the `start` event.
    ///
    /// Thread: any (a pure function of the value).
    public func jsonLine(title: String) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: (try? encoder.encode(line(title: title))) ?? Data(), as: UTF8.self)
    }

    /// The event's JSON object (`title`: the session's, for the start event).
    func line(title: String?) -> EventLine {
        var o: EventLine
        switch self {
        case .started(let i):
            o = EventLine(event: "start")
            (o.title, o.device, o.sampleRate, o.period, o.buffer) = (title, i.device, i.sampleRate, i.periodFrames, i.bufferFrames)
            (o.format, o.realtime, o.scheduling, o.silentReason) = (i.format.rawValue, i.isRealtime, i.scheduling, i.silentReason)
        case .mark(let name, let time, let markTitle):
            o = EventLine(event: "mark", time: time, name: name)
            o.title = markTitle
        case .xrun(let count, let time, let lost): o = EventLine(event: "xrun", time: time, count: count, lost: lost)
        case .deviceError(let message): o = EventLine(event: "device-error", message: message)
        case .deviceRestored(let time): o = EventLine(event: "device-restored", time: time)
        case .paused(let time): o = EventLine(event: "pause", time: time)
        case .resumed(let time): o = EventLine(event: "resume", time: time)
        case .seeked(let time): o = EventLine(event: "seek", time: time)
        case .triggered(let name, let time): o = EventLine(event: "trigger", time: time, name: name)
        case .volumeChanged(let bus, let decibels, let muted):
            o = EventLine(event: "volume")
            (o.bus, o.decibels, o.muted) = (bus, decibels.isFinite ? decibels : nil, muted)
        case .ended(let reason, let time, let xruns): o = EventLine(event: "end", time: time, reason: reason.rawValue, xruns: xruns)
        case .radio(let event): o = event.eventLine
        case .latencyChanged(let latency, let period, let buffer):
            o = EventLine(event: "latency")
            (o.latency, o.period, o.buffer) = (latency.rawValue, period, buffer)
        }
        return o
    }
}

/// Events encode as the JSON objects `jsonLine` writes (with no session title) and decode
/// from them, so an app can keep, send or replay them: `JSONEncoder().encode(event)`.
extension PlayerEvent: Codable {
    public func encode(to encoder: any Encoder) throws {
        try line(title: nil).encode(to: encoder)
    }

    public init(from decoder: any Decoder) throws {
        let o = try EventLine(from: decoder)
        func need<T>(_ value: T?, _ key: String) throws -> T {
            guard let value else {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                                                        debugDescription: "a \"\(o.event)\" event needs \"\(key)\""))
            }
            return value
        }
        switch o.event {
        case "start":
            guard let format = SampleFormat(rawValue: try need(o.format, "format")) else {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "unknown sample format"))
            }
            self = .started(PlaybackInfo(device: try need(o.device, "device"), sampleRate: try need(o.sampleRate, "sampleRate"),
                                         periodFrames: try need(o.period, "period"), bufferFrames: try need(o.buffer, "buffer"),
                                         format: format, scheduling: try need(o.scheduling, "scheduling"),
                                         isRealtime: try need(o.realtime, "realtime"), silentReason: o.silentReason))
        case "mark": self = .mark(name: try need(o.name, "name"), time: try need(o.time, "time"), title: o.title)
        case "xrun": self = .xrun(count: try need(o.count, "count"), time: try need(o.time, "time"), lostSeconds: try need(o.lost, "lost"))
        case "device-error": self = .deviceError(try need(o.message, "message"))
        case "device-restored": self = .deviceRestored(time: try need(o.time, "time"))
        case "pause": self = .paused(time: try need(o.time, "time"))
        case "resume": self = .resumed(time: try need(o.time, "time"))
        case "seek": self = .seeked(time: try need(o.time, "time"))
        case "trigger": self = .triggered(name: try need(o.name, "name"), time: try need(o.time, "time"))
        case "volume": self = .volumeChanged(bus: o.bus, decibels: o.decibels ?? -.infinity, muted: try need(o.muted, "muted"))
        case "latency":
            guard let latency = OutputLatency(rawValue: try need(o.latency, "latency")) else {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "unknown latency"))
            }
            self = .latencyChanged(latency: latency, periodFrames: try need(o.period, "period"), bufferFrames: try need(o.buffer, "buffer"))
        case "end":
            guard let reason = EndReason(rawValue: try need(o.reason, "reason")) else {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "unknown end reason"))
            }
            self = .ended(reason: reason, time: try need(o.time, "time"), xruns: try need(o.xruns, "xruns"))
        default:
            let url = try need(o.url, "url")
            switch o.event {
            case "radio-buffering": self = .radio(.buffering(url: url, reason: try need(o.reason, "reason")))
            case "radio-playing":
                self = .radio(.playing(url: url, name: o.name, codec: try need(o.codec, "codec"), seconds: try need(o.seconds, "seconds")))
            case "radio-title": self = .radio(.title(url: url, title: try need(o.title, "title")))
            case "radio-reconnect":
                self = .radio(.reconnect(url: url, attempt: try need(o.attempt, "attempt"), delay: try need(o.delay, "delay"),
                                         reason: try need(o.reason, "reason")))
            case "radio-error": self = .radio(.error(url: url, message: try need(o.message, "message")))
            case "radio-skipped": self = .radio(.skipped(url: url, message: try need(o.message, "message")))
            default:
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "unknown event \"\(o.event)\""))
            }
        }
    }
}

extension RadioEvent {
    /// `{"event":"radio-title","url":"…","title":"…"}` and its kin.
    var eventLine: EventLine {
        var o: EventLine
        switch self {
        case .buffering(_, let reason): o = .init(event: "radio-buffering", reason: reason)
        case .playing(_, let name, let codec, let seconds):
            o = .init(event: "radio-playing", name: name)
            (o.codec, o.seconds) = (codec, seconds)
        case .title(_, let title): o = .init(event: "radio-title", title: title)
        case .reconnect(_, let attempt, let delay, let reason):
            o = .init(event: "radio-reconnect", reason: reason)
            (o.attempt, o.delay) = (attempt, delay)
        case .error(_, let message): o = .init(event: "radio-error", message: message)
        case .skipped(_, let message): o = .init(event: "radio-skipped", message: message)
        }
        o.url = url
        return o
    }
}

/// One event's JSON object; members left `nil` are not written.
struct EventLine: Codable {
    var event: String
    var time: Double?
    var name: String?
    var count: Int?
    var lost: Double?
    var message: String?
    var reason: String?
    var xruns: Int?
    var title: String?
    var device: String?
    var sampleRate: Int?
    var period: Int?
    var buffer: Int?
    var latency: String?
    var format: String?
    var realtime: Bool?
    var scheduling: String?
    /// Why nothing is heard (the start event of a session on the silent clock).
    var silentReason: String?
    var url: String?
    var codec: String?
    var seconds: Double?
    var attempt: Int?
    var delay: Double?
    var bus: String?
    /// dB; absent for silence (−∞).
    var decibels: Double?
    var muted: Bool?
}
