import Glibc

/// The two magnitudes of a dual-motor rumble effect (Linux `FF_RUMBLE`): `strong` drives
/// the large, low-frequency motor, `weak` the small, high-frequency one; 0…0xFFFF each.
///
/// Thread: a value type; any thread.
public struct RumbleMagnitudes: Sendable, Hashable, CustomStringConvertible {
    /// The large, low-frequency motor's magnitude, 0…0xFFFF.
    public var strong: UInt16
    /// The small, high-frequency motor's magnitude, 0…0xFFFF.
    public var weak: UInt16

    /// Magnitudes of `strong` and `weak`, each 0…0xFFFF.
    public init(strong: UInt16, weak: UInt16) {
        self.strong = strong
        self.weak = weak
    }

    /// Both motors off.
    public static let zero = RumbleMagnitudes(strong: 0, weak: 0)
    /// Whether both motors are off.
    public var isZero: Bool { strong == 0 && weak == 0 }
    /// `strong S, weak W`, in decimal.
    public var description: String { "strong \(strong), weak \(weak)" }
}

/// How (intensity, sharpness) becomes (strong, weak) motor magnitudes. No standard formula
/// exists (Apple publishes none for its Taptic Engine, and Linux only knows the two
/// motors), so each strategy is named and says why it is shaped as it is.
///
/// Thread: a value type; any thread.
public enum RumbleMapping: String, Sendable, Hashable, CaseIterable {
    /// The default. Sharpness crossfades between the motors at equal power:
    /// `strong = I·cos(πs/2)`, `weak = I·sin(πs/2)`, each × 0xFFFF and rounded.
    ///
    /// Why: sharpness is Core Haptics' "dull ↔ crisp" axis, and a gamepad's only crispness
    /// control is which motor turns — the large eccentric mass gives a deep, slow rumble
    /// (dull), the small one a fast buzz (crisp). So low sharpness goes to the strong motor
    /// and high sharpness to the weak one. The crossfade keeps strong² + weak² = I², so a
    /// sharpness sweep at constant intensity does not feel like a change of strength, and
    /// at sharpness 0.5 both motors run at 71 %, the mixed feel a middle sharpness means.
    case equalPowerSplit = "equal-power-split"
    /// Both motors at the intensity, sharpness ignored: for devices with one motor (the
    /// other magnitude is ignored by their drivers) or when only strength matters.
    case intensityOnly = "intensity-only"

    /// The magnitudes for an intensity and a sharpness (both clamped to 0…1).
    public func magnitudes(intensity: Double, sharpness: Double) -> RumbleMagnitudes {
        let i = min(max(intensity, 0), 1)
        let s = min(max(sharpness, 0), 1)
        switch self {
        case .equalPowerSplit:
            return RumbleMagnitudes(strong: Self.scale(i * cos(Double.pi / 2 * s)),
                                    weak: Self.scale(i * sin(Double.pi / 2 * s)))
        case .intensityOnly:
            return RumbleMagnitudes(strong: Self.scale(i), weak: Self.scale(i))
        }
    }

    static func scale(_ x: Double) -> UInt16 { UInt16((min(max(x, 0), 1) * 65535).rounded()) }
}
