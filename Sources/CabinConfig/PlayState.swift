import CabinAudio
import CabinSession
import FoundationEssentials

/// What `cabin play` remembers between runs, in `$XDG_STATE_HOME/cabin/state.json`: the last
/// session (its document's path, or its preset with the options, and the loudness and seed
/// given) with the position it stopped at, and the listener's volumes it ended with.
///
/// ```json
/// {
///   "cabinState": 1,
///   "session": { "preset": "pomodoro", "options": { "focus": "50m" }, "title": "Pomodoro: 4 × 50 min",
///                "position": 754.2, "duration": 12608, "ended": false },
///   "volumes": { "master": -6, "radio": -6 }
/// }
/// ```
///
/// `cabin play` writes it (through CabinIO's `OutputFile`: a temporary file, synced and
/// renamed, so a crash never leaves half a file) when the session stops and every
/// ``saveInterval`` seconds while it plays. A session that played to its end is remembered
/// as ended, and `--resume` says there is nothing to resume.
///
/// Thread: pure; any thread except the render thread.
public struct PlayState: Sendable, Equatable, Codable {
    /// The format's version.
    public var cabinState = 1
    /// The last session played (nil: none remembered).
    public var session: Session?
    /// The listener's volumes by bus (`master` for the master) in dB; nil is silence.
    public var volumes: [String: Double?] = [:]
    /// The volumes `decode` left out, each with its reason (a bad entry costs only itself,
    /// never the resume point). Not written.
    public var dropped: [PlayStateError] = []

    private enum CodingKeys: String, CodingKey { case cabinState, session, volumes }

    /// A volume as the file holds it: a number, null (silence), or something else.
    private struct Entry: Decodable {
        var level: Double??
        init(from decoder: any Decoder) throws {
            let c = try decoder.singleValueContainer()
            level = c.decodeNil() ? .some(nil) : (try? c.decode(Double.self)).map { .some($0) }
        }
    }

    /// Decodes the file's fields; a volume that is not a number or null is left out and
    /// named in `dropped`. Throws `DecodingError` when the rest is not a state file's shape.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        cabinState = try c.decode(Int.self, forKey: .cabinState)
        session = try c.decodeIfPresent(Session.self, forKey: .session)
        for (bus, entry) in try c.decodeIfPresent([String: Entry].self, forKey: .volumes) ?? [:] {
            if let level = entry.level {
                volumes[bus] = level
            } else {
                dropped.append(PlayStateError("volumes.\(bus): not a number of dB"))
            }
        }
    }

    /// How often a playing session saves its position.
    public static let saveInterval = 10.0

    /// The session remembered: what it was and where it stopped.
    public struct Session: Sendable, Equatable, Codable {
        /// The document's absolute path, or nil for a preset.
        public var file: String?
        /// The preset's name, or nil for a document (one of `file` and `preset` is set).
        public var preset: String?
        /// The preset's options as given (name without dashes → value); nil: none.
        public var options: [String: String]?
        /// `--loudness` and `--seed`, as given.
        public var loudness: String?
        /// The seed given with `--seed` (nil: none given).
        public var seed: UInt64?
        /// The session's title, for people.
        public var title: String
        /// Where it stopped on its timeline, in seconds.
        public var position: Double
        /// Its length, in seconds.
        public var duration: Double
        /// It played to its end (nothing to resume).
        public var ended: Bool

        /// A session of `file` or `preset` (with its `options`, `loudness` and `seed` as
        /// given) stopped at `position` of `duration` seconds.
        public init(file: String? = nil, preset: String? = nil, options: [String: String]? = nil, loudness: String? = nil,
                    seed: UInt64? = nil, title: String, position: Double, duration: Double, ended: Bool) {
            (self.file, self.preset, self.options, self.loudness, self.seed) = (file, preset, options, loudness, seed)
            (self.title, self.position, self.duration, self.ended) = (title, position, duration, ended)
        }
    }

    /// A state of `session` and the listener's `volumes` by bus (a non-finite level, the
    /// silence, is kept as null).
    public init(session: Session? = nil, volumes: [String: Decibels] = [:]) {
        self.session = session
        self.volumes = volumes.mapValues { $0.value.isFinite ? $0.value : nil }
    }

    /// The remembered volumes as levels.
    public var levels: [String: Decibels] {
        volumes.mapValues { level in level.map { Decibels($0) } ?? .silence }
    }

    /// The file's bytes.
    public func encoded() -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return Array((try? encoder.encode(self)) ?? Data("{}".utf8)) + [UInt8(ascii: "\n")]
    }

    /// Reads a state file's bytes; a file that cannot be used is the reason, one line (the
    /// CLI warns and goes on without it: a state file is never worth failing over). A bad
    /// volume is left out and named in `dropped`; the rest of the file is used.
    public static func decode(_ bytes: [UInt8]) -> Result<PlayState, PlayStateError> {
        var state: PlayState
        do { state = try JSONDecoder().decode(PlayState.self, from: Data(bytes)) } catch {
            return .failure(PlayStateError("not a Cabin state file (\(PlayStateError.describe(error)))"))
        }
        guard state.cabinState == 1 else { return .failure(PlayStateError("version \(state.cabinState) is not one this Cabin reads (1)")) }
        if let s = state.session {
            guard s.position.isFinite, s.position >= 0, s.duration.isFinite, s.duration >= 0, s.position <= s.duration + 1 else {
                return .failure(PlayStateError("session.position \(s.position) is not a time within the session's \(s.duration) s"))
            }
            guard (s.file == nil) != (s.preset == nil) else { return .failure(PlayStateError("session: needs a file or a preset, one of them")) }
            if let file = s.file, !file.hasPrefix("/") { return .failure(PlayStateError("session.file '\(file)' is not an absolute path")) }
            if let preset = s.preset, SessionPresets.named(preset) == nil { return .failure(PlayStateError("session.preset: no preset '\(preset)'")) }
        }
        for (bus, level) in state.volumes.sorted(by: { $0.key < $1.key }) {
            if let level, !(level.isFinite && VolumeLevel.contains(Decibels(level))) {
                state.volumes[bus] = nil
                state.dropped.append(PlayStateError("volumes.\(bus): \(level) dB is not a volume (−200 … +6.8 dB)"))
            }
        }
        state.dropped.sort { $0.description < $1.description }
        return .success(state)
    }
}

/// Why a state file was not used, as one line.
public struct PlayStateError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The reason, one line.
    public var description: String
    /// A reason of `description`.
    public init(_ description: String) { self.description = description }

    static func describe(_ error: any Error) -> String {
        switch error {
        case DecodingError.dataCorrupted(let c): return c.debugDescription
        case DecodingError.keyNotFound(let key, _): return "no \"\(key.stringValue)\""
        case DecodingError.typeMismatch(_, let c), DecodingError.valueNotFound(_, let c):
            return (c.codingPath.map(\.stringValue).joined(separator: ".")) + ": " + c.debugDescription
        default: return "\(error)"
        }
    }
}
