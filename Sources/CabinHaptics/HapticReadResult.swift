import CabinJSON

/// What a haptic reader returns: the pattern (when there were no errors) and every
/// diagnostic, each with file, line:column, JSON path, value and rule.
///
/// Thread: a value type; any thread.
public struct HapticReadResult: Sendable {
    /// The pattern, or `nil` when any error was recorded (in strict mode: any warning).
    public var pattern: HapticPattern?
    /// Every error and warning the reader recorded, in the order found; empty for a clean file.
    public var diagnostics: Diagnostics
}
