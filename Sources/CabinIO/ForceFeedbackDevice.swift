import CabinHaptics

/// The operations Cabin performs on a Linux evdev force-feedback device, one per system
/// call, so players and discovery can run against a real device (``EvdevDevice``) or a
/// recording one in tests.
///
/// Every operation behaves as its system call does: it returns −1 and sets `errno` on
/// failure (`EINTR`, `ENODEV` …), and callers pass it through ``checkedCall(_:_:)``, which
/// retries `EINTR`. Implementations must not retry or translate errors themselves.
///
/// Thread: one thread at a time (the one playing).
public protocol ForceFeedbackDevice: AnyObject {
    /// `ioctl(EVIOCGBIT(type, bits.count))`: fills `bits`; returns the bytes written.
    func getBits(eventType: UInt16, into bits: inout [UInt8]) -> Int32
    /// `ioctl(EVIOCGNAME(name.count))`: fills `name` with a NUL-terminated name.
    func getName(into name: inout [UInt8]) -> Int32
    /// `ioctl(EVIOCGEFFECTS)`: how many effects the device holds at once.
    func getEffectSlots(into count: inout Int32) -> Int32
    /// `ioctl(EVIOCSFF)` with an `FF_RUMBLE` effect; `effect.id` −1 asks for a new slot and
    /// receives the slot the kernel chose; an existing id updates that effect in place.
    func uploadEffect(_ effect: inout RumbleEffect) -> Int32
    /// `ioctl(EVIOCRMFF, id)`.
    func removeEffect(id: Int16) -> Int32
    /// `write(2)` of one `struct input_event`; returns the bytes written.
    func writeEvent(_ event: InputEvent) -> Int
    /// `close(2)`.
    func close() -> Int32
}

/// Opening devices and listing them: the rest of the OS that force feedback needs.
///
/// Thread: any thread.
public protocol ForceFeedbackSystem {
    /// `open(2)` read-only (enough to query) or read-write (needed to upload and play);
    /// `nil` with `errno` set on failure.
    func open(_ path: String, writable: Bool) -> (any ForceFeedbackDevice)?
    /// The evdev nodes to look at (`/dev/input/event*`), in numeric order.
    func inputDevicePaths() -> [String]
}

/// An `FF_RUMBLE` effect as uploaded: slot id, motor magnitudes, replay length and delay.
///
/// Thread: a value type; any thread.
public struct RumbleEffect: Sendable, Hashable {
    /// −1 for a new effect; otherwise the slot to update.
    public var id: Int16
    /// The strong (low-frequency) and weak (high-frequency) motors' strengths, 0…0xFFFF.
    public var magnitudes: RumbleMagnitudes
    /// How long a play lasts, in ms (the kernel's `replay.length`).
    public var lengthMilliseconds: UInt16
    /// How long after a play starts the motors begin, in ms (`replay.delay`).
    public var delayMilliseconds: UInt16

    /// An effect for slot `id` (−1: a new one), each other parameter the property of its name.
    public init(id: Int16, magnitudes: RumbleMagnitudes, lengthMilliseconds: UInt16, delayMilliseconds: UInt16 = 0) {
        self.id = id
        self.magnitudes = magnitudes
        self.lengthMilliseconds = lengthMilliseconds
        self.delayMilliseconds = delayMilliseconds
    }
}

/// One `struct input_event` to write (the kernel stamps the time).
///
/// Thread: a value type; any thread.
public struct InputEvent: Sendable, Hashable {
    /// The event type (`EvdevCode.evFF` for force feedback).
    public var type: UInt16
    /// The code within the type: an effect's id to play, or `EvdevCode.ffGain`.
    public var code: UInt16
    /// The value: a play's repeat count (0 stops), or the gain 0…0xFFFF.
    public var value: Int32

    /// Play (`count` > 0 repeats) or stop (`count` 0) effect `id`.
    public static func play(_ id: Int16, count: Int32) -> InputEvent {
        InputEvent(type: EvdevCode.evFF, code: UInt16(bitPattern: id), value: count)
    }

    /// Set the device's force-feedback gain, 0…0xFFFF.
    public static func gain(_ value: UInt16) -> InputEvent {
        InputEvent(type: EvdevCode.evFF, code: EvdevCode.ffGain, value: Int32(value))
    }
}

/// The kernel ABI numbers Cabin uses (from `linux/input-event-codes.h`; stable ABI).
public enum EvdevCode {
    /// Event type 0 asks EVIOCGBIT for the device's event types.
    public static let evSyn: UInt16 = 0x00
    /// Force-feedback events (play/stop an effect, set gain).
    public static let evFF: UInt16 = 0x15
    /// `FF_RUMBLE`: the two-motor rumble effect (strong and weak magnitudes).
    public static let ffRumble: UInt16 = 0x50
    /// `FF_PERIODIC`: a periodic waveform effect.
    public static let ffPeriodic: UInt16 = 0x51
    /// `FF_CONSTANT`: a constant force effect.
    public static let ffConstant: UInt16 = 0x52
    /// `FF_GAIN`: the device's global force-feedback gain.
    public static let ffGain: UInt16 = 0x60
    /// Bytes for EVIOCGBIT(EV_FF): FF_MAX (0x7f) + 1 bits.
    public static let ffBitsByteCount = 16
    /// Bytes for EVIOCGBIT(0): EV_MAX (0x1f) + 1 bits.
    public static let eventTypeBitsByteCount = 4

    /// Whether bit `bit` is set in an EVIOCGBIT answer.
    public static func test(_ bits: [UInt8], _ bit: UInt16) -> Bool {
        let byte = Int(bit) / 8
        return byte < bits.count && bits[byte] & (1 << (bit % 8)) != 0
    }
}
