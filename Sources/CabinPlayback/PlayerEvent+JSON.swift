import FoundationEssentials

extension PlayerEvent {
    /// The event as one JSON line, as `cabin play --json` prints it, the control socket's
    /// `observe` streams it and the C library's `cabin_player_poll` returns it:
    /// `{"event":"mark","name":"rest","time":1500,"title":"rest stop"}`, keys sorted, members
    /// that do not apply left out. `title` is the session's, written in the `start` event.
    ///
    /// Thread: any (a pure function of the value).
    public func jsonLine(title: String) -> String {
        var o: EventLine
        switch self {
        case .started(let i):
            o = EventLine(event: "start")
            (o.title, o.device, o.sampleRate, o.period, o.buffer) = (title, i.device, i.sampleRate, i.periodFrames, i.bufferFrames)
            (o.format, o.realtime, o.scheduling) = (i.format.rawValue, i.isRealtime, i.scheduling)
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
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: (try? encoder.encode(o)) ?? Data(), as: UTF8.self)
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
struct EventLine: Encodable {
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
    var format: String?
    var realtime: Bool?
    var scheduling: String?
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
