import CabinJSON

/// A compiled pattern as an Android composition: `VibrationEffect.startComposition()
/// .addPrimitive(id, scale, delay)…compose()` (API 30; THUD and LOW_TICK from API 31).
///
/// Android plays primitives one after another; a primitive's delay is a pause after the
/// previous one ends (`DELAY_TYPE_PAUSE`, the default). Primitive lengths are the device's
/// own (`Vibrator.getPrimitiveDurations`, API 31), so Cabin allots each primitive a length
/// of its own and computes the delays against those allotments:
///
/// - **transients** (intensity I, sharpness S after controls) become a primitive allotted
///   ``transientMilliseconds`` (default 20 ms, the compiler's transient length):
///   S ≥ 0.5 and I ≥ 0.5 → `PRIMITIVE_CLICK`, S ≥ 0.5 and I < 0.5 → `PRIMITIVE_TICK`,
///   S < 0.5 and I ≥ 0.5 → `PRIMITIVE_THUD`, S < 0.5 and I < 0.5 → `PRIMITIVE_LOW_TICK`;
///   scale = I;
/// - **continuous ramps**: the continuous track's breakpoints are grouped into runs that
///   only rise or only fall; a run that changes intensity by at least ``minimumRamp``
///   (default 0.1) becomes a primitive allotted the run's length: a rise of at most
///   ``quickRiseMilliseconds`` (default 200 ms) → `PRIMITIVE_QUICK_RISE`, a longer rise →
///   `PRIMITIVE_SLOW_RISE`, a fall → `PRIMITIVE_QUICK_FALL`; scale = the run's highest level.
///   A held level has no primitive (compositions have no sustained vibration; use the
///   waveform export for textures): its time stays in the delays and is reported as
///   `heldMs`;
/// - primitives are placed at their start times in order; one that would start before the
///   previous allotment ends starts at that end instead (its end stays), and one that would
///   then be empty is dropped (counted in `droppedPrimitives`).
///
/// The primitives' delays and allotments, plus `tailMs`, sum to `lengthMs`: the compiled
/// pattern's end (events plus their release and transient tails; a loop's single pass's,
/// ``CompiledHaptics/once``), in whole milliseconds.
///
/// Thread: a value type; pure functions; any thread except the render thread.
public struct AndroidComposition: Sendable, Hashable {
    /// Android's primitive constants (`VibrationEffect.Composition.PRIMITIVE_*`).
    public enum Primitive: Int, Sendable, Hashable, CaseIterable {
        /// `PRIMITIVE_CLICK` (1): a sharp, strong transient (sharpness and intensity ≥ 0.5).
        case click = 1
        /// `PRIMITIVE_THUD` (2, API 31): a dull, strong transient (sharpness < 0.5, intensity ≥ 0.5).
        case thud = 2
        /// `PRIMITIVE_SPIN` (3, API 31): a spinning feel; Cabin's conversion never emits it.
        case spin = 3
        /// `PRIMITIVE_QUICK_RISE` (4): a rise in intensity of at most ``AndroidComposition/quickRiseMilliseconds``.
        case quickRise = 4
        /// `PRIMITIVE_SLOW_RISE` (5): a longer rise in intensity.
        case slowRise = 5
        /// `PRIMITIVE_QUICK_FALL` (6): a fall in intensity, of any length.
        case quickFall = 6
        /// `PRIMITIVE_TICK` (7): a sharp, light transient (sharpness ≥ 0.5, intensity < 0.5).
        case tick = 7
        /// `PRIMITIVE_LOW_TICK` (8, API 31): a dull, light transient (sharpness and intensity < 0.5).
        case lowTick = 8

        /// The constant's name, e.g. `PRIMITIVE_CLICK`.
        public var constantName: String {
            switch self {
            case .click: "PRIMITIVE_CLICK"
            case .thud: "PRIMITIVE_THUD"
            case .spin: "PRIMITIVE_SPIN"
            case .quickRise: "PRIMITIVE_QUICK_RISE"
            case .slowRise: "PRIMITIVE_SLOW_RISE"
            case .quickFall: "PRIMITIVE_QUICK_FALL"
            case .tick: "PRIMITIVE_TICK"
            case .lowTick: "PRIMITIVE_LOW_TICK"
            }
        }

        /// The API level that introduced the constant.
        public var apiLevel: Int { self == .thud || self == .spin || self == .lowTick ? 31 : 30 }
    }

    /// One `addPrimitive(primitive, scale, delayMs)`, with the time Cabin allotted it.
    public struct Element: Sendable, Hashable {
        /// The primitive `addPrimitive` plays.
        public var primitive: Primitive
        /// The primitive's strength, 0…1 (a transient's intensity, a ramp's highest level).
        public var scale: Double
        /// The pause before it, after the previous element's allotment (ms).
        public var delayMilliseconds: Int
        /// The length Cabin allotted it (ms).
        public var durationMilliseconds: Int
        /// Its start in the pattern (ms).
        public var startMilliseconds: Int
    }

    /// The `addPrimitive` calls, in play order; empty when the pattern has no transient and
    /// no ramp.
    public var elements: [Element]
    /// The compiled pattern's end, rounded to whole ms.
    public var lengthMilliseconds: Int
    /// The time after the last element's allotment up to `lengthMilliseconds`.
    public var tailMilliseconds: Int
    /// Milliseconds of continuous vibration held at a level, which no primitive plays.
    public var heldMilliseconds: Int
    /// Primitives dropped because the ones before them filled their time.
    public var droppedPrimitives: Int

    /// The length allotted to a transient's primitive, in milliseconds (20, the compiler's
    /// transient length).
    public static let transientMilliseconds = 20
    /// The longest rise, in milliseconds, that becomes `PRIMITIVE_QUICK_RISE` (200); a longer
    /// one becomes `PRIMITIVE_SLOW_RISE`.
    public static let quickRiseMilliseconds = 200
    /// The smallest change in intensity (0…1 scale) a rising or falling run needs to become a
    /// primitive (0.1); a smaller run counts as held.
    public static let minimumRamp = 0.1

    /// The primitives a device must support (`Vibrator.arePrimitivesSupported`), in
    /// constant order: an unsupported primitive plays nothing at all.
    public var requiredPrimitives: [Primitive] {
        let used = Set(elements.map(\.primitive))
        return Primitive.allCases.filter { used.contains($0) }
    }

    /// The lowest API level that has every required primitive (30 when there are none).
    public var minimumAPILevel: Int { requiredPrimitives.map(\.apiLevel).max() ?? 30 }

    /// The primitive for a transient of `intensity` and `sharpness` (see the type's rule).
    public static func primitive(intensity: Double, sharpness: Double) -> Primitive {
        switch (sharpness >= 0.5, intensity >= 0.5) {
        case (true, true): .click
        case (true, false): .tick
        case (false, true): .thud
        case (false, false): .lowTick
        }
    }

    /// Converts `compiled` as it plays once from silence (``CompiledHaptics/once``: a loop's
    /// single pass; a composition cannot repeat, and one period of a seamless loop, which
    /// starts at its seam's level, may have no rise or fall to become a primitive).
    public init(_ compiled: CompiledHaptics) {
        let compiled = compiled.once
        func ms(_ t: Double) -> Int { Int((t * 1000).rounded()) }
        let length = ms(compiled.endTime)
        struct Candidate { var start: Int, end: Int, primitive: Primitive, scale: Double, order: Int }
        var candidates: [Candidate] = []
        for t in compiled.transients {
            let start = ms(t.time)
            candidates.append(Candidate(start: start, end: min(length, start + Self.transientMilliseconds),
                                        primitive: Self.primitive(intensity: t.intensity, sharpness: t.sharpness),
                                        scale: clamp01(t.intensity), order: candidates.count))
        }
        // Continuous track: runs of rising or falling segments.
        var held = 0.0
        let points = compiled.breakpoints
        var k = 0
        while k + 1 < points.count {
            let a = points[k], b = points[k + 1]
            let delta = b.intensity - a.intensity
            if abs(delta) < 1e-9 || b.time <= a.time {
                if b.time > a.time && a.intensity > 1e-9 { held += b.time - a.time }
                k += 1
                continue
            }
            let rising = delta > 0
            var end = k + 1
            while end + 1 < points.count {
                let d = points[end + 1].intensity - points[end].intensity
                if rising ? d > 1e-9 : d < -1e-9 { end += 1 } else if abs(d) < 1e-9 && points[end + 1].time == points[end].time {
                    end += 1
                } else { break }
            }
            let first = points[k], last = points[end]
            let change = abs(last.intensity - first.intensity)
            if change >= Self.minimumRamp {
                let start = ms(first.time), stop = ms(last.time)
                let primitive: Primitive = rising
                    ? (stop - start <= Self.quickRiseMilliseconds ? .quickRise : .slowRise) : .quickFall
                candidates.append(Candidate(start: start, end: max(stop, start + 1), primitive: primitive,
                                            scale: clamp01(max(first.intensity, last.intensity)),
                                            order: candidates.count))
            }
            k = end
        }
        candidates.sort { ($0.start, $0.order) < ($1.start, $1.order) }
        var elements: [Element] = []
        var cursor = 0
        var dropped = 0
        for c in candidates {
            let start = max(c.start, cursor)
            let end = min(c.end, length)
            guard end > start else {
                dropped += 1
                continue
            }
            elements.append(Element(primitive: c.primitive, scale: round6(c.scale), delayMilliseconds: start - cursor,
                                    durationMilliseconds: end - start, startMilliseconds: start))
            cursor = end
        }
        self.elements = elements
        lengthMilliseconds = length
        tailMilliseconds = length - cursor
        heldMilliseconds = ms(held)
        droppedPrimitives = dropped
    }

    /// The composition as a JSON document (pretty-printed):
    ///
    /// ```json
    /// { "format": "android-composition", "minApiLevel": 30,
    ///   "requiredPrimitives": ["PRIMITIVE_CLICK"],
    ///   "note": "…", "lengthMs": 120, "tailMs": 0, "heldMs": 0, "droppedPrimitives": 0,
    ///   "primitives": [ { "primitive": "PRIMITIVE_CLICK", "id": 1, "scale": 1,
    ///                     "delayMs": 0, "durationMs": 20, "startMs": 0 } ] }
    /// ```
    public var jsonDocument: JSONValue {
        .object([
            ("format", .string("android-composition")),
            ("minApiLevel", .number(minimumAPILevel)),
            ("requiredPrimitives", .array(requiredPrimitives.map { .string($0.constantName) })),
            ("note", .string("check Vibrator.arePrimitivesSupported(requiredPrimitives) before playing: an unsupported "
                             + "primitive plays nothing; delays are DELAY_TYPE_PAUSE against Cabin's allotted durations "
                             + "(transients 20 ms, ramps their length), the device's own durations differ")),
            ("lengthMs", .number(lengthMilliseconds)),
            ("tailMs", .number(tailMilliseconds)),
            ("heldMs", .number(heldMilliseconds)),
            ("droppedPrimitives", .number(droppedPrimitives)),
            ("primitives", .array(elements.map {
                .object([
                    ("primitive", .string($0.primitive.constantName)),
                    ("id", .number($0.primitive.rawValue)),
                    ("scale", .number($0.scale)),
                    ("delayMs", .number($0.delayMilliseconds)),
                    ("durationMs", .number($0.durationMilliseconds)),
                    ("startMs", .number($0.startMilliseconds)),
                ])
            })),
        ])
    }
}
