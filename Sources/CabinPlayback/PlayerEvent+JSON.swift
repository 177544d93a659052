import CabinJSON

extension PlayerEvent {
    /// The event as one JSON object, as `cabin play --json` prints it and the control
    /// socket's `observe` streams it: `{"event":"mark","name":"rest","time":1500}` (keys
    /// sorted; `title` is the session's, for `start`).
    ///
    /// Thread: any thread except the render thread.
    public func json(title: String) -> JSONValue {
        var o: [(String, JSONValue)] = []
        func add(_ key: String, _ value: JSONValue) { o.append((key, value)) }
        switch self {
        case .started(let i):
            add("event", .string("start"))
            add("title", .string(title)); add("device", .string(i.device)); add("sampleRate", .number(i.sampleRate))
            add("period", .number(i.periodFrames)); add("buffer", .number(i.bufferFrames))
            add("format", .string(i.format.rawValue)); add("realtime", .bool(i.isRealtime)); add("scheduling", .string(i.scheduling))
        case .mark(let name, let time): add("event", .string("mark")); add("name", .string(name)); add("time", .seconds(time))
        case .xrun(let count, let time, let lost):
            add("event", .string("xrun")); add("count", .number(count)); add("time", .seconds(time)); add("lost", .seconds(lost))
        case .deviceError(let message): add("event", .string("device-error")); add("message", .string(message))
        case .deviceRestored(let time): add("event", .string("device-restored")); add("time", .seconds(time))
        case .paused(let time): add("event", .string("pause")); add("time", .seconds(time))
        case .resumed(let time): add("event", .string("resume")); add("time", .seconds(time))
        case .seeked(let time): add("event", .string("seek")); add("time", .seconds(time))
        case .triggered(let name, let time): add("event", .string("trigger")); add("name", .string(name)); add("time", .seconds(time))
        case .volumeChanged(let bus, let decibels, let muted):
            add("event", .string("volume")); add("decibels", .seconds(decibels)); add("muted", .bool(muted))
            if let bus { add("bus", .string(bus)) }
        case .ended(let reason, let time, let xruns):
            add("event", .string("end")); add("reason", .string(reason.rawValue)); add("time", .seconds(time)); add("xruns", .number(xruns))
        }
        return .object(o.sorted { $0.0 < $1.0 })
    }
}

extension JSONValue {
    /// A number of seconds (or dB): whole values without a fraction (`1500`, not `1500.0`);
    /// −∞ and other non-finite values as `null`.
    static func seconds(_ x: Double) -> JSONValue {
        guard x.isFinite else { return .null }
        return x == x.rounded() && abs(x) < 1e15 ? .number(Int(x)) : .number(x)
    }
}
