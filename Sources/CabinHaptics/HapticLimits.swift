import CabinJSON

/// Hard limits the readers enforce, so an absurd file is an error, not a hang.
///
/// Thread: a value type; any thread.
public struct HapticLimits: Sendable, Hashable {
    /// Most events in one pattern (default 100 000); more is an error.
    public var maxEvents: Int
    /// Most `Parameter` + `ParameterCurve` entries, and most control points over all
    /// curves or `.haptic` breakpoints (default 100 000 each); more is an error.
    public var maxControls: Int
    /// Latest time anything may start or end, in seconds (default 3600: one hour); later is
    /// an error.
    public var maxTime: Double
    /// Longest continuous event (default 30 s, as Core Haptics); longer is capped with a
    /// warning.
    public var maxContinuousDuration: Double
    /// Most control points per curve Apple's engine plays (16); more is a warning.
    public var appleMaxControlPoints: Int

    /// Limits with the given values (each property says its unit and default).
    public init(
        maxEvents: Int = 100_000, maxControls: Int = 100_000, maxTime: Double = 3600,
        maxContinuousDuration: Double = 30, appleMaxControlPoints: Int = 16
    ) {
        self.maxEvents = maxEvents
        self.maxControls = maxControls
        self.maxTime = maxTime
        self.maxContinuousDuration = maxContinuousDuration
        self.appleMaxControlPoints = appleMaxControlPoints
    }

    /// The default limits, as each property states them.
    public static let `default` = HapticLimits()
}

/// How a haptic reader treats what Core Haptics would accept.
///
/// Lenient (the default) follows Core Haptics' loading rules — missing keys take defaults,
/// out-of-range values are clamped, unknown keys are ignored, file quirks are accepted —
/// and reports each as a warning. Strict turns every warning into an error.
///
/// Thread: a value type; any thread.
public struct HapticReadOptions: Sendable, Hashable {
    /// Lenient or strict, as the JSON parser's.
    public typealias Mode = JSONParseOptions.Mode

    /// Lenient (warnings) or strict (every warning an error); default lenient.
    public var mode: Mode
    /// The hard limits; default ``HapticLimits/default``.
    public var limits: HapticLimits
    /// How AHAP `ParameterCurve` control-point times are read (default `.auto`).
    public var curveTimes: CurveTimes

    /// Options with the given mode, limits and reading of curve times.
    public init(mode: Mode = .lenient, limits: HapticLimits = .default, curveTimes: CurveTimes = .auto) {
        self.mode = mode
        self.limits = limits
        self.curveTimes = curveTimes
    }

    /// How AHAP curve control-point times are read.
    ///
    /// Apple's are relative to the curve's `Time`; Lofelt's old converter wrote absolute ones.
    /// Both are valid JSON for the same curve, so only a hint tells them apart.
    public enum CurveTimes: String, Sendable, Hashable, CaseIterable {
        /// Relative, unless the curve's `Time` is > 0 and its first point's `Time` equals it:
        /// then absolute, with a warning (`ahap.absolute-curve-times`) that says so and how
        /// to choose.
        case auto
        /// Always relative to the curve's `Time` (Apple's reading), without a warning.
        case relative
        /// Always absolute (Lofelt's); a point before the curve's `Time` is a warning
        /// (`ahap.point-before-curve`) and starts the curve.
        case absolute
    }

    /// Lenient, with the default limits and curve times.
    public static let lenient = HapticReadOptions(mode: .lenient)
    /// Strict, with the default limits and curve times.
    public static let strict = HapticReadOptions(mode: .strict)
}
