/// ``RumblePlan``'s rules applied as a signal arrives instead of to a whole pattern: what a
/// live player (one following a running session, whose speed and live events are not known
/// ahead) sends to a rumble device, step by step.
///
/// - **Continuous track** (voice 0): one call of ``continuous(at:intensity:sharpness:)`` per
///   step of ``RumblePlanOptions/stepMilliseconds`` with the step's 1 kHz signal; its
///   magnitudes are the plan's (mean intensity, intensity-weighted sharpness, the mapping).
///   A change uploads and plays the new magnitudes; an unchanged effect is uploaded again
///   every ``RumblePlanOptions/refreshMilliseconds``; each upload's replay length is the
///   refresh plus ``RumblePlanOptions/slackMilliseconds``, so the effect never ends before
///   the next refresh, and a player that stops calling leaves a motor running at most that
///   long. Silence stops the voice.
/// - **Transients** (voices 1…): ``transient(at:intensity:sharpness:)`` as the plan places
///   them: at least ``RumblePlanOptions/minimumTransientMilliseconds``, the lowest free voice,
///   else the one that ends soonest. With no transient voices, a transient stronger than the
///   continuous level plays on voice 0 until the next step.
///
/// Thread: a value type; pure; any thread except the render thread (allocates).
public struct RumbleStepper: Sendable {
    /// The step, pulse and voice options it plays by.
    public let options: RumblePlanOptions
    /// What voice 0 plays (zero: stopped).
    public private(set) var current = RumbleMagnitudes.zero
    private var uploadedAt: Int?
    private var freeAt: [Int]

    /// A stepper with every voice free and voice 0 stopped.
    public init(options: RumblePlanOptions = .init()) {
        self.options = options
        freeAt = [Int](repeating: Int.min, count: options.transientVoices)
    }

    /// Voices the stepper may use: 1 + transient voices.
    public var voiceCount: Int { 1 + options.transientVoices }

    /// The actions for the continuous step starting at `milliseconds`, from its signal.
    public mutating func continuous(at milliseconds: Int, intensity: [Float], sharpness: [Float]) -> [RumblePlan.Action] {
        let m = RumblePlan.stepMagnitudes(intensity[...], sharpness[...], options.mapping)
        if m.isZero {
            defer { current = .zero }
            return current.isZero ? [] : [.stop(voice: 0)]
        }
        guard m != current || uploadedAt.map({ milliseconds - $0 >= options.refreshMilliseconds }) ?? true else { return [] }
        current = m
        uploadedAt = milliseconds
        return [.play(voice: 0, magnitudes: m, lengthMilliseconds: options.refreshMilliseconds + options.slackMilliseconds)]
    }

    /// The action for a transient at `milliseconds` (nil when it maps to silence).
    public mutating func transient(at milliseconds: Int, intensity: Double, sharpness: Double) -> RumblePlan.Action? {
        let m = options.mapping.magnitudes(intensity: intensity, sharpness: sharpness)
        guard !m.isZero else { return nil }
        let length = options.minimumTransientMilliseconds
        guard !freeAt.isEmpty else {
            guard m.strong > current.strong || m.weak > current.weak else { return nil }
            current = RumbleMagnitudes(strong: max(m.strong, current.strong), weak: max(m.weak, current.weak))
            uploadedAt = nil  // the next step uploads its own level again
            return .play(voice: 0, magnitudes: current, lengthMilliseconds: length + options.stepMilliseconds)
        }
        let voice = freeAt.firstIndex { $0 <= milliseconds } ?? freeAt.indices.min { freeAt[$0] < freeAt[$1] }!
        freeAt[voice] = milliseconds + length
        return .play(voice: voice + 1, magnitudes: m, lengthMilliseconds: length)
    }

    /// Everything stops (a pause, a seek): the stop for voice 0 if it plays; transients end
    /// by themselves.
    public mutating func reset() -> [RumblePlan.Action] {
        defer {
            current = .zero
            uploadedAt = nil
            freeAt = freeAt.map { _ in Int.min }
        }
        return current.isZero ? [] : [.stop(voice: 0)]
    }
}
