import CabinAudio
import CabinJSON
import CabinOutput
import CabinPlayback
import CabinSession

/// The control socket's commands (`ControlServer`), each acting on the live player on the
/// control thread and answering with data or a one-line error. `cabin ctl` sends them.
///
/// | command | arguments | what it does |
/// |---|---|---|
/// | `pause`, `resume`, `toggle` | | pull over / drive on (with the transport's fade) |
/// | `seek` | `SECONDS` or a time (`"24m50s"`, `"-30s"`), then `relative` (default) or `absolute` | moves on the timeline |
/// | `set` | `NAME VALUE` | a session parameter (`["set", "speed", 40]`); `["speed", 40]` is the same |
/// | `volume` | `[BUS] LEVEL` (`80`, `"80%"`, `"-6dB"`) | the master's or a bus's volume |
/// | `mute` | `[on\|off\|toggle]` | mutes the master (default: toggle) |
/// | `trigger` | `NAME` | a live event (`LivePlayer.trigger`) |
/// | `next-station`, `previous-station` | | the radio's stations |
/// | `latency` | `low\|relaxed\|auto` | the output latency while playing (`LivePlayer.setLatency`); `auto`: it follows the session's needs (`LivePlayer.setAutomaticLatency`) |
/// | `stop`, `quit` | | fade out and end the session (`quit` also ends what follows it) |
/// | `status` | | title, state, position, duration, segment (its title), mark (its name), parameters, volumes, xruns, device, latency (ms, mode, whether automatic, the needs) |
/// | `help` | | the commands and live events |
///
/// Thread: control thread.
struct ControlCommands {
    let player: LivePlayer
    let title: String

    static let names: [(name: String, usage: String)] = [
        ("pause", "pause"), ("resume", "resume"), ("toggle", "toggle"),
        ("seek", "seek SECONDS|TIME [relative|absolute]"), ("set", "set PARAMETER VALUE"),
        ("volume", "volume [BUS] LEVEL (80, 80%, -6dB)"), ("mute", "mute [on|off|toggle]"),
        ("trigger", "trigger EVENT"), ("next-station", "next-station"), ("previous-station", "previous-station"),
        ("latency", "latency low|relaxed|auto"), ("stop", "stop"), ("quit", "quit"), ("status", "status"), ("observe", "observe"), ("unobserve", "unobserve"),
        ("help", "help"),
    ]

    /// The commands a person's hand is behind (not `status`, `observe`, `help`, which a
    /// status bar sends every second, nor `latency`, `stop`, `quit`): each is an interaction
    /// (`LivePlayer.noteInteraction()`), so with automatic latency what follows answers quickly.
    static let interactions: Set<String> = ["pause", "resume", "toggle", "seek", "set", "volume", "mute", "trigger",
                                             "next-station", "previous-station"]

    func perform(_ name: String, _ arguments: [JSONValue]) throws(PlayerControlError) -> JSONValue {
        if Self.interactions.contains(name) || player.session.config.parameter(named: name) != nil { player.noteInteraction() }
        switch name {
        case "pause": try count(arguments, 0, name); player.pause()
        case "resume": try count(arguments, 0, name); player.resume()
        case "toggle": try count(arguments, 0, name); player.togglePause()
        case "seek": try seek(arguments)
        case "set":
            try count(arguments, 2, name)
            guard let parameter = arguments[0].stringValue else { throw PlayerControlError("set: the parameter's name must be a string") }
            try setParameter(parameter, arguments[1])
        case "volume": try volume(arguments)
        case "mute": try mute(arguments)
        case "trigger":
            try count(arguments, 1, name)
            guard let event = arguments[0].stringValue else { throw PlayerControlError("trigger: the event's name must be a string") }
            try player.trigger(event)
        case "next-station": try count(arguments, 0, name); try player.nextStation()
        case "previous-station": try count(arguments, 0, name); try player.previousStation()
        case "latency": try latency(arguments)
        case "stop", "quit": try count(arguments, 0, name); player.stop()
        case "status": try count(arguments, 0, name); return status()
        case "help": return help()
        default:
            // `["speed", 40]`: a parameter's name as the command.
            if player.session.config.parameter(named: name) != nil, arguments.count == 1 {
                try setParameter(name, arguments[0])
                return .null
            }
            throw PlayerControlError("unknown command '\(name)' (commands: \(Self.names.map(\.name).joined(separator: ", ")))")
        }
        return .null
    }

    private func count(_ arguments: [JSONValue], _ n: Int, _ name: String) throws(PlayerControlError) {
        guard arguments.count == n else {
            let usage = Self.names.first { $0.name == name }?.usage ?? name
            throw PlayerControlError("\(name) takes \(n == 0 ? "no arguments" : "\(n) argument\(n == 1 ? "" : "s")"): \(usage)")
        }
    }

    /// A number, or a string holding one (`cabin ctl` sends words as typed).
    private func number(_ value: JSONValue) -> Double? {
        value.numberValue ?? value.stringValue.flatMap { Double($0) }
    }

    private func seek(_ arguments: [JSONValue]) throws(PlayerControlError) {
        guard (1...2).contains(arguments.count) else { throw PlayerControlError("seek takes 1 or 2 arguments: seek SECONDS|TIME [relative|absolute]") }
        var mode = "relative"
        if arguments.count == 2 {
            guard let m = arguments[1].stringValue, m == "relative" || m == "absolute" else {
                throw PlayerControlError("seek: the second argument must be 'relative' or 'absolute', not \(arguments[1].excerpt)")
            }
            mode = m
        }
        guard let seconds = Self.seconds(arguments[0]) else {
            throw PlayerControlError("seek: \(arguments[0].excerpt) is not a time: seconds, or \(SessionTime.rule) (with - to go back)")
        }
        if mode == "absolute" {
            guard seconds >= 0 else { throw PlayerControlError("seek: an absolute time cannot be negative") }
            player.seek(to: seconds)
        } else {
            player.seek(by: seconds)
        }
    }

    /// Seconds from a number or a time string, with an optional sign (`-30s`, `+1m`).
    static func seconds(_ value: JSONValue) -> Double? {
        if let n = value.numberValue { return n.isFinite ? n : nil }
        guard var text = value.stringValue?.trimmingWhitespace(), !text.isEmpty else { return nil }
        var sign = 1.0
        if text.hasPrefix("-") || text.hasPrefix("+") {
            sign = text.hasPrefix("-") ? -1 : 1
            text.removeFirst()
        }
        if let n = Double(text), n.isFinite { return sign * n }
        return SessionTime.parse(text).map { sign * $0 }
    }

    private func setParameter(_ name: String, _ value: JSONValue) throws(PlayerControlError) {
        guard let spec = player.session.config.parameters.first(where: { $0.name == name }) else {
            let names = player.session.config.parameters.map(\.name)
            throw PlayerControlError("no parameter '\(name)' in this session" + (names.isEmpty ? " (it has none)" : " (it has: \(names.joined(separator: ", ")))"))
        }
        guard let x = number(value), x.isFinite else { throw PlayerControlError("\(name): \(value.excerpt) is not a number") }
        guard spec.range.contains(x) else {
            throw PlayerControlError("\(name) must be \(NumberText.plain(spec.range.lowerBound))–\(NumberText.plain(spec.range.upperBound)), not \(NumberText.plain(x))")
        }
        player.setParameter(name, to: x)
    }

    private func volume(_ arguments: [JSONValue]) throws(PlayerControlError) {
        guard (1...2).contains(arguments.count) else { throw PlayerControlError("volume takes 1 or 2 arguments: volume [BUS] LEVEL") }
        var bus: String?
        if arguments.count == 2 {
            guard let name = arguments[0].stringValue else { throw PlayerControlError("volume: the bus's name must be a string") }
            bus = name
        }
        let value = arguments[arguments.count - 1]
        var level: Decibels?
        if let percent = value.numberValue {
            level = VolumeLevel.fromPercent(percent)
        } else if let text = value.stringValue {
            level = VolumeLevel.parse(text)
        }
        guard let level else { throw PlayerControlError("volume: \(value.excerpt) is not a volume: \(VolumeLevel.rule)") }
        try player.setVolume(level, bus: bus)
    }

    /// `low` or `relaxed`, kept until changed; `auto`: the latency follows the session's
    /// needs (`LivePlayer.setAutomaticLatency()`).
    private func latency(_ arguments: [JSONValue]) throws(PlayerControlError) {
        try count(arguments, 1, "latency")
        let word = arguments[0].stringValue ?? ""
        if word == "auto" { return try player.setAutomaticLatency() }
        guard let chosen = OutputLatency(rawValue: word) else {
            throw PlayerControlError("latency: the argument must be low, relaxed or auto, not \(arguments[0].excerpt)")
        }
        try player.setLatency(chosen)
    }

    private func mute(_ arguments: [JSONValue]) throws(PlayerControlError) {
        guard arguments.count <= 1 else { throw PlayerControlError("mute takes at most 1 argument: mute [on|off|toggle]") }
        switch arguments.first?.stringValue ?? (arguments.isEmpty ? "toggle" : "") {
        case "on": player.setMuted(true)
        case "off": player.setMuted(false)
        case "toggle": player.setMuted(!player.volume.muted)
        default: throw PlayerControlError("mute: the argument must be on, off or toggle, not \(arguments[0].excerpt)")
        }
    }

    func status() -> JSONValue {
        let s = player.status
        let v = player.volume
        var volumes: [(String, JSONValue)] = [("master", .seconds(v.master.value)), ("muted", .bool(v.muted))]
        volumes.append(("buses", .object(player.session.config.buses.map { ($0.name, .seconds((v.buses[$0.name] ?? 0).value)) })))
        return .object([
            ("title", .string(title)),
            ("state", .string(s.state.rawValue)),
            ("position", .seconds((s.position * 1000).rounded() / 1000)),
            ("duration", .seconds(s.duration)),
            ("remaining", .seconds((s.remaining * 1000).rounded() / 1000)),
            ("segment", s.segment.map { .string($0) } ?? .null),
            ("mark", s.mark.map { .string($0) } ?? .null),
            ("parameters", .object(player.parameterValues.map { ($0.name, .seconds($0.value)) })),
            ("volume", .object(volumes)),
            ("xruns", .number(s.xruns)),
            ("device", .string(player.options.device)),
            ("latency", .seconds((s.latencyMilliseconds * 10).rounded() / 10)),
            ("latencyMode", s.latency.map { .string($0.rawValue) } ?? .null),
            ("latencyAuto", .bool(s.latencyIsAutomatic)),
            ("latencyNeeds", .array(s.latencyNeeds.map { .string($0.rawValue) })),
            ("radio", .bool(player.stations != nil)),
            ("stations", .array(s.radio.map { r in
                .object([("url", .string(r.url)), ("state", .string(r.state.rawValue)),
                         ("name", r.name.map { .string($0) } ?? .null), ("title", r.title.map { .string($0) } ?? .null)])
            })),
            ("events", .array(player.liveEventList.map { .string($0.name) })),
        ])
    }

    func help() -> JSONValue {
        .object([
            ("commands", .array(Self.names.map { .string($0.usage) })),
            ("parameters", .array(player.session.config.parameters.map { .string($0.name) })),
            ("buses", .array(player.session.config.buses.map { .string($0.name) })),
            ("events", .array(player.liveEventList.map { .string("\($0.name): \($0.summary)") })),
        ])
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

extension LivePlayer {
    /// What the control socket's `status` answers (`cabin ctl status --json`): title, state,
    /// position, duration, segment, mark, parameters, volumes, xruns, device, latency, radio,
    /// live events. `title` is the session's name for people.
    ///
    /// Thread: any thread (one consistent reading, under the control lock).
    public func statusJSON(title: String) -> JSONValue {
        control.withLock { ControlCommands(player: self, title: title).status() }
    }
}
