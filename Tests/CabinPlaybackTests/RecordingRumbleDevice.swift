import CabinHaptics
import CabinIO
import CabinPlayback
import Glibc

/// A clock that moves only when the player sleeps, so timings in logs are exact.
final class FakeRumbleClock: RumbleClock {
    var time: Duration = .zero
    func now() -> Duration { time }
    func sleep(for duration: Duration) { time += duration }
    var milliseconds: Int { Int(time.components.seconds * 1000 + time.components.attoseconds / 1_000_000_000_000_000) }
}

/// A force-feedback device that records every operation (with the fake clock's time) and
/// behaves as a kernel evdev device would: ids from 0 for new effects, ENOSPC when its
/// slots are full, EINVAL for unknown ids; scripted failures set errno like a syscall.
final class RecordingRumbleDevice: ForceFeedbackDevice {
    let clock: FakeRumbleClock
    var log: [String] = []
    var slots: Int32
    var ffBits: [UInt16]
    var name: String
    var effects: [Int16: RumbleEffect] = [:]
    /// (text in the log line, errno, how many times): the next matching calls fail.
    var failures: [(prefix: String, code: Int32, count: Int)] = []

    init(clock: FakeRumbleClock = FakeRumbleClock(), slots: Int32 = 16,
         ffBits: [UInt16] = [EvdevCode.ffRumble, EvdevCode.ffPeriodic, EvdevCode.ffGain], name: String = "Test Pad") {
        self.clock = clock
        self.slots = slots
        self.ffBits = ffBits
        self.name = name
    }

    private func record(_ op: String) -> Bool {
        let line = "@\(clock.milliseconds) \(op)"
        log.append(line)
        if let i = failures.firstIndex(where: { line.contains($0.prefix) }) {
            errno = failures[i].code
            log[log.count - 1] += " -> errno \(failures[i].code)"
            failures[i].count -= 1
            if failures[i].count == 0 { failures.remove(at: i) }
            return false
        }
        return true
    }

    func getBits(eventType: UInt16, into bits: inout [UInt8]) -> Int32 {
        guard record("EVIOCGBIT \(eventType)") else { return -1 }
        let set: [UInt16] = eventType == 0 ? [EvdevCode.evFF].filter { _ in !ffBits.isEmpty } + [1] : ffBits
        for bit in set where Int(bit) / 8 < bits.count { bits[Int(bit) / 8] |= 1 << (bit % 8) }
        return Int32(bits.count)
    }

    func getName(into buffer: inout [UInt8]) -> Int32 {
        guard record("EVIOCGNAME") else { return -1 }
        for (i, b) in name.utf8.prefix(buffer.count - 1).enumerated() { buffer[i] = b }
        return Int32(name.utf8.count + 1)
    }

    func getEffectSlots(into count: inout Int32) -> Int32 {
        guard record("EVIOCGEFFECTS") else { return -1 }
        count = slots
        return 0
    }

    func uploadEffect(_ effect: inout RumbleEffect) -> Int32 {
        let m = effect.magnitudes
        guard record("EVIOCSFF id \(effect.id) strong \(m.strong) weak \(m.weak) length \(effect.lengthMilliseconds)") else { return -1 }
        if effect.id == -1 {
            guard let free = (0..<Int16(slots)).first(where: { effects[$0] == nil }) else {
                errno = ENOSPC
                log[log.count - 1] += " -> errno \(ENOSPC)"
                return -1
            }
            effect.id = free
            log[log.count - 1] += " -> id \(free)"
        } else if effects[effect.id] == nil {
            errno = EINVAL
            return -1
        }
        effects[effect.id] = effect
        return 0
    }

    func removeEffect(id: Int16) -> Int32 {
        guard record("EVIOCRMFF \(id)") else { return -1 }
        guard effects.removeValue(forKey: id) != nil else { errno = EINVAL; return -1 }
        return 0
    }

    func writeEvent(_ event: InputEvent) -> Int {
        let what = event.code == EvdevCode.ffGain ? "gain \(event.value)" : event.value == 0 ? "stop \(event.code)" : "play \(event.code) x\(event.value)"
        guard record("write EV_FF \(what)") else { return -1 }
        return 24
    }

    func close() -> Int32 {
        _ = record("close")
        return 0
    }
}

/// A set of device nodes: some rumble, some not, some that cannot be opened.
struct RecordingRumbleSystem: ForceFeedbackSystem {
    var devices: [String: RecordingRumbleDevice]
    var openErrors: [String: Int32] = [:]

    func open(_ path: String, writable: Bool) -> (any ForceFeedbackDevice)? {
        if let code = openErrors[path] { errno = code; return nil }
        guard let device = devices[path] else { errno = ENOENT; return nil }
        return device
    }

    func inputDevicePaths() -> [String] {
        (Array(devices.keys) + Array(openErrors.keys)).sorted()
    }
}
