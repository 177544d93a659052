import CabinAudio
import CabinHaptics
import CabinJSON

/// One file's state as the page draws it: the JSON of `GET /TOKEN/patterns.json` (one
/// element) and of each server-sent `pattern` event, and the WAV of its sound.
///
/// The figures are the compiler's, unrounded: `CompiledHaptics.breakpoints` (time,
/// intensity, sharpness: what `haptics plot` draws), `transients`, `duration`, `endTime`.
/// Text from the file (its name, the diagnostics' messages and values, its source) is only
/// ever a JSON string (CabinJSON's writer escapes every control character); the page puts
/// it in the document as text, never as markup.
///
/// Thread: a value type; any thread.
public struct StudioPattern: Sendable {
    /// What the last read of the file gave.
    public enum Status: String, Sendable {
        /// Read, compiled and rendered: the timeline is this version.
        case ok
        /// The pattern has errors: the timeline is the last good version, if any.
        case errors
        /// Its sound (a waveform file) has errors: the timeline is this version, without sound.
        case soundErrors = "sound-errors"
        /// The file cannot be read (a folder, too large, no permission …).
        case unreadable
        /// The file is not there (yet, or any more): it is waited for.
        case missing
    }

    /// The version the timeline shows: the last one that compiled.
    public struct Good: Sendable {
        /// The `generation` it was read at.
        public var generation: Int
        /// When it was read (`14:03:27`).
        public var readAt: String
        /// Its caption: length, events and curves (`0.27 s, 3 haptic events (1 transient), 2
        /// curves`), as `HapticPatternFile.summary` words it.
        public var summary: String
        /// The pattern compiled at the studio's strength: what the timeline draws and the
        /// devices play.
        public var compiled: CompiledHaptics
        /// Its sound (the haptics as audio with the pattern's own sound mixed in), or nil.
        public var audio: AudioBuffer?
        /// What a DualSense is sent (4 channels: the pattern's sound on 1–2, the haptics on
        /// 3–4), made only when the studio has a DualSense.
        public var dualsense: AudioBuffer?
    }

    /// Its place in the studio's files (`Studio.files`), and in the page.
    public var index: Int
    /// The path as given on the command line.
    public var name: String
    /// Counts the reads of this file (1 for the first).
    public var generation: Int = 0
    /// What the last read gave (`missing` before the first).
    public var status: Status = .missing
    /// The last read's diagnostics, in document order (the reader's and the waveforms').
    public var diagnostics: [Diagnostic] = []
    /// Why the file could not be read, when it could not.
    public var failure: String?
    /// The file's text as last read (invalid UTF-8 replaced), for the page's source view.
    public var source: String?
    /// The last version that compiled (nil: none has yet).
    public var good: Good?

    /// Pattern `index` of the studio, its file `name`, not read yet.
    public init(index: Int, name: String) {
        self.index = index
        self.name = name
    }

    /// How many min/max pairs of the sound the page draws its waveform from.
    public static let peakCount = 1000

    /// The page's JSON for this pattern.
    public var json: JSONValue {
        var members: [(String, JSONValue)] = [
            ("index", .number(index)), ("name", .string(name)), ("generation", .number(generation)),
            ("status", .string(status.rawValue)),
            ("diagnostics", .array(diagnostics.map(Self.json))),
            ("failure", failure.map(JSONValue.string) ?? .null),
            ("source", source.map(JSONValue.string) ?? .null),
        ]
        if let good {
            let compiled = good.compiled
            var timeline: [(String, JSONValue)] = [
                ("generation", .number(good.generation)), ("readAt", .string(good.readAt)), ("summary", .string(good.summary)),
                ("duration", .number(compiled.duration)), ("endTime", .number(compiled.endTime)),
                ("breakpoints", .array(compiled.breakpoints.map(Self.json))),
                ("transients", .array(compiled.transients.map(Self.json))),
            ]
            if let audio = good.audio {
                timeline.append(("audio", .object([
                    ("url", .string("audio/\(index).wav?v=\(good.generation)")),
                    ("sampleRate", .number(audio.sampleRate)), ("frames", .number(audio.frameCount)),
                    ("seconds", .number(audio.duration)),
                    ("peaks", .array(Self.peaks(audio, count: Self.peakCount).map { .array([.number(Double($0.min)), .number(Double($0.max))]) })),
                ])))
            } else {
                timeline.append(("audio", .null))
            }
            members.append(("timeline", .object(timeline)))
        } else {
            members.append(("timeline", .null))
        }
        return .object(members)
    }

    static func json(_ point: HapticPoint) -> JSONValue {
        .array([.number(point.time), .number(point.intensity), .number(point.sharpness)])
    }

    static func json(_ d: Diagnostic) -> JSONValue {
        .object([
            ("severity", .string(d.severity.rawValue)), ("line", .number(d.line)), ("column", .number(d.column)),
            ("offset", .number(d.location.offset)), ("path", .string(d.path.description)),
            ("value", d.value.map(JSONValue.string) ?? .null), ("message", .string(d.message)), ("rule", .string(d.rule)),
            ("text", .string(d.description)),
        ])
    }

    /// The sound's envelope for drawing: `count` equal slices of its frames (fewer for a
    /// shorter sound), each slice's least and greatest sample over every channel.
    public static func peaks(_ audio: AudioBuffer, count: Int) -> [(min: Float, max: Float)] {
        let frames = audio.frameCount, channels = audio.channelCount
        let slices = min(count, frames)
        guard slices > 0 else { return [] }
        return (0..<slices).map { s in
            let start = s * frames / slices, end = (s + 1) * frames / slices
            var low: Float = 0, high: Float = 0
            for i in (start * channels)..<(end * channels) {
                low = min(low, audio.samples[i])
                high = max(high, audio.samples[i])
            }
            return (low, high)
        }
    }

    /// `audio` as a WAV file: 16-bit PCM (what every browser's `<audio>` plays), each sample
    /// clipped to ±1 and rounded to the nearest step.
    public static func wav(_ audio: AudioBuffer) -> [UInt8] {
        let channels = audio.channelCount, rate = Int(audio.sampleRate.rounded())
        let dataBytes = audio.samples.count * 2
        var out: [UInt8] = []
        out.reserveCapacity(44 + dataBytes)
        func text(_ s: String) { out += Array(s.utf8) }
        func u32(_ v: Int) { for shift in stride(from: 0, to: 32, by: 8) { out.append(UInt8(truncatingIfNeeded: v >> shift)) } }
        func u16(_ v: Int) { out.append(UInt8(truncatingIfNeeded: v)); out.append(UInt8(truncatingIfNeeded: v >> 8)) }
        text("RIFF"); u32(36 + dataBytes); text("WAVE")
        text("fmt "); u32(16); u16(1); u16(channels); u32(rate); u32(rate * channels * 2); u16(channels * 2); u16(16)
        text("data"); u32(dataBytes)
        for sample in audio.samples {
            let v = sample.isNaN ? 0 : Int((Double(max(-1, min(1, sample))) * 32767).rounded())
            u16(v)
        }
        return out
    }
}
