import CabinJSON

/// The options designers know from Meta Haptics Studio's audio analysis.
///
/// Thread: a value type; any thread.
public struct AudioToHapticsOptions: Sendable, Hashable {
    /// Gain on the envelope in dB (−60…60; default 0): louder makes more of the sound
    /// reach full intensity (clipped at 1).
    public var gainDecibels: Double
    /// Points a second of the continuous curves (1…1000; default 50), besides one at each onset.
    public var resolution: Double
    /// Room in dB between the continuous track's loudest point and full intensity (0…60;
    /// default 0), so transients stand out of the texture.
    public var headroomDecibels: Double
    /// How far above its local mean the onset function must peak to be a transient (0…1,
    /// default 0.07, librosa's): higher keeps only the stronger onsets.
    public var emphasisThreshold: Double
    /// The least time between two transients in seconds (0.01…2; default 0.03, librosa's
    /// `wait`): longer lets a run of quick onsets (an engine running) tap less often, each
    /// tap still on an onset.
    public var minimumGap: Double

    /// Options with the given values (each property's range and meaning above); none is
    /// checked here: ``problems`` lists those out of range.
    public init(gainDecibels: Double = 0, resolution: Double = 50, headroomDecibels: Double = 0, emphasisThreshold: Double = 0.07,
                minimumGap: Double = 0.03) {
        self.gainDecibels = gainDecibels
        self.resolution = resolution
        self.headroomDecibels = headroomDecibels
        self.emphasisThreshold = emphasisThreshold
        self.minimumGap = minimumGap
    }

    /// One line per option out of its range (`--gain must be …, not 80`), none when all fit.
    public var problems: [String] {
        var lines: [String] = []
        func check(_ value: Double, _ range: ClosedRange<Double>, _ name: String, _ unit: String) {
            if !value.isFinite || !range.contains(value) {
                lines.append("--\(name) must be \(NumberText.decimals(range.lowerBound, 2))…\(NumberText.decimals(range.upperBound, 2))\(unit), not \(value)")
            }
        }
        check(gainDecibels, -60...60, "gain", " dB")
        check(resolution, 1...1000, "resolution", " points a second")
        check(headroomDecibels, 0...60, "headroom", " dB")
        check(emphasisThreshold, 0...1, "emphasis-threshold", "")
        check(minimumGap, 0.01...2, "min-gap", " s")
        return lines
    }
}

extension AudioToHaptics {
    /// The result as a Meta/Lofelt `.haptic` document: `version` 1.0.0, `metadata`
    /// (`project`, `author`, `description` when given), the amplitude envelope (amplitude =
    /// intensity², an `emphasis` {amplitude = intensity², frequency = sharpness} on each
    /// transient's breakpoint) and the frequency envelope (frequency = sharpness²).
    public func hapticDocument(metadata: [String: String] = [:]) -> JSONValue {
        func r(_ x: Double) -> JSONValue { .number(round6(x)) }
        var emphasis: [Double: Point] = [:]
        for t in transients { emphasis[t.time] = t }
        let amplitude: [JSONValue] = points.map { p in
            var members: [(String, JSONValue)] = [("time", r(p.time)), ("amplitude", r(p.intensity * p.intensity))]
            if let t = emphasis[p.time] {
                // Never weaker than the texture it sits on (the haptic.emphasis-below-envelope lint).
                members.append(("emphasis", .object([("amplitude", r(max(t.intensity * t.intensity, p.intensity * p.intensity))),
                                                     ("frequency", r(t.sharpness))])))
            }
            return .object(members)
        }
        let frequency: [JSONValue] = points.map { .object([("time", r($0.time)), ("frequency", r($0.sharpness * $0.sharpness))]) }
        let meta = ["project", "author", "description"].compactMap { key in metadata[key].map { (key, JSONValue.string($0)) } }
        var members: [(String, JSONValue)] = [
            ("version", .object([("major", .number(1)), ("minor", .number(0)), ("patch", .number(0))])),
        ]
        if !meta.isEmpty { members.append(("metadata", .object(meta))) }
        members.append(("signals", .object([("continuous", .object([("envelopes", .object([
            ("amplitude", .array(amplitude)), ("frequency", .array(frequency)),
        ]))]))])))
        return .object(members)
    }

    /// The pattern the `.haptic` document plays (read back by ``LofeltHapticReader``), for
    /// ``AHAPWriter`` and the compiler.
    public func pattern(metadata: [String: String] = [:]) -> HapticPattern {
        let text = hapticDocument(metadata: metadata).serialized(pretty: false)
        return LofeltHapticReader.read(text, file: "from-audio.haptic").pattern ?? HapticPattern()
    }
}
