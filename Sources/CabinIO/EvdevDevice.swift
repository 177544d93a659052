import CCabinShims
import FoundationEssentials
import Glibc

/// The real ``ForceFeedbackSystem``: `/dev/input/event*` nodes opened with `open(2)`.
///
/// Thread: any thread.
public struct EvdevSystem: ForceFeedbackSystem {
    /// Where the evdev nodes live (`/dev/input`).
    public var directory: String

    /// The nodes under `directory` (a test's folder of fakes, or `/dev/input`).
    public init(directory: String = "/dev/input") { self.directory = directory }

    /// Opens `path` with `O_CLOEXEC` (and `O_RDWR` when `writable`).
    /// The corresponding C function is `open`.
    public func open(_ path: String, writable: Bool) -> (any ForceFeedbackDevice)? {
        let fd = Glibc.open(path, (writable ? O_RDWR : O_RDONLY) | O_CLOEXEC)
        return fd < 0 ? nil : EvdevDevice(fd: fd)
    }

    /// `eventN` entries of `directory`, sorted by N. The corresponding C functions are
    /// `opendir`/`readdir` (through FileManager).
    public func inputDevicePaths() -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.compactMap { name -> (Int, String)? in
            guard name.hasPrefix("event"), let n = Int(name.dropFirst(5)) else { return nil }
            return (n, "\(directory)/\(name)")
        }.sorted { $0.0 < $1.0 }.map(\.1)
    }
}

/// An open evdev node (a file descriptor). Each method is one system call through the
/// shims in `CCabinShims` (the ioctl request numbers are C macros).
///
/// Thread: one thread at a time.
public final class EvdevDevice: ForceFeedbackDevice {
    private var fd: Int32

    init(fd: Int32) { self.fd = fd }

    deinit { if fd >= 0 { Glibc.close(fd) } }

    /// The corresponding C function is `ioctl` (`EVIOCGBIT`).
    public func getBits(eventType: UInt16, into bits: inout [UInt8]) -> Int32 {
        let count = UInt32(bits.count)
        return bits.withUnsafeMutableBytes { cabin_evdev_get_bits(fd, UInt32(eventType), $0.baseAddress, count) }
    }

    /// The corresponding C function is `ioctl` (`EVIOCGNAME`).
    public func getName(into name: inout [UInt8]) -> Int32 {
        let count = UInt32(name.count)
        return name.withUnsafeMutableBytes {
            cabin_evdev_get_name(fd, $0.baseAddress?.assumingMemoryBound(to: CChar.self), count)
        }
    }

    /// The corresponding C function is `ioctl` (`EVIOCGEFFECTS`).
    public func getEffectSlots(into count: inout Int32) -> Int32 {
        cabin_evdev_get_effects(fd, &count)
    }

    /// The corresponding C function is `ioctl` (`EVIOCSFF`).
    public func uploadEffect(_ effect: inout RumbleEffect) -> Int32 {
        var id = effect.id
        let result = cabin_evdev_upload_rumble(fd, &id, effect.magnitudes.strong, effect.magnitudes.weak,
                                               effect.lengthMilliseconds, effect.delayMilliseconds)
        if result >= 0 { effect.id = id }
        return result
    }

    /// The corresponding C function is `ioctl` (`EVIOCRMFF`).
    public func removeEffect(id: Int16) -> Int32 {
        cabin_evdev_remove_effect(fd, Int32(id))
    }

    /// The corresponding C function is `write` (one `struct input_event`).
    public func writeEvent(_ event: InputEvent) -> Int {
        cabin_evdev_write_event(fd, event.type, event.code, event.value)
    }

    /// The corresponding C function is `close`. Idempotent.
    public func close() -> Int32 {
        guard fd >= 0 else { return 0 }
        let result = Glibc.close(fd)
        fd = -1
        return result
    }
}
