import Glibc

/// What a rumble device can do, read with `EVIOCGBIT`, `EVIOCGNAME` and `EVIOCGEFFECTS`.
///
/// Thread: a value type; any thread.
public struct RumbleDeviceInfo: Sendable, Equatable, Codable {
    /// The evdev node, e.g. `/dev/input/event5`.
    public var path: String
    /// The kernel's name for it, e.g. `Sony Interactive Entertainment DualSense Wireless Controller`.
    public var name: String
    /// How many effects it holds at once (`EVIOCGEFFECTS`; often 16).
    public var effectSlots: Int
    /// Whether it takes a global gain (`FF_GAIN`).
    public var supportsGain: Bool
    /// Effect types besides rumble it reports (`periodic`, `constant`).
    public var otherEffects: [String]

    /// A device's description, each parameter the property of the same name.
    public init(path: String, name: String, effectSlots: Int, supportsGain: Bool, otherEffects: [String] = []) {
        self.path = path
        self.name = name
        self.effectSlots = effectSlots
        self.supportsGain = supportsGain
        self.otherEffects = otherEffects
    }
}

/// Finding rumble devices: every `/dev/input/event*` node with `EV_FF` and `FF_RUMBLE`.
///
/// Thread: control thread only (opens device nodes).
public enum RumbleDevices {
    /// What a scan found: rumble devices, and the nodes that could not be opened (usually
    /// for want of permission, which hides whether they rumble).
    public struct Listing: Sendable {
        /// The rumble devices found (`EV_FF` with `FF_RUMBLE`), in the nodes' order.
        public var devices: [RumbleDeviceInfo]
        /// Each node that could not be opened, with the error opening it.
        public var unreadable: [(path: String, error: SystemError)]
        /// How many nodes were looked at.
        public var scanned: Int

        /// The nodes that could not be opened, as one phrase for a listing's last line:
        /// `2 could not be opened: permission denied; add yourself to the 'input' group (then
        /// log in again), or use a udev rule` (`ForceFeedbackFailure.permissionDenied`'s
        /// advice) when every one was refused for want of permission, else with the first's
        /// error. Nil when every node opened.
        public var unreadableSummary: String? {
            guard let first = unreadable.first else { return nil }
            let denied = unreadable.allSatisfy { ForceFeedbackError($0.error, device: $0.path).kind == .permissionDenied }
            return "\(unreadable.count) could not be opened: "
                + (denied ? "permission denied; \(ForceFeedbackFailure.permissionDenied.advice)" : "\(first.error)")
        }
    }

    /// Scans every evdev node of `system`.
    public static func list(system: any ForceFeedbackSystem = EvdevSystem()) -> Listing {
        var listing = Listing(devices: [], unreadable: [], scanned: 0)
        for path in system.inputDevicePaths() {
            listing.scanned += 1
            do {
                let device = try open(path, writable: false, system: system)
                defer { _ = device.close() }
                if let info = try probe(device, path: path) { listing.devices.append(info) }
            } catch {
                listing.unreadable.append((path, error))
            }
        }
        return listing
    }

    /// Opens `path`, retrying `EINTR`. The corresponding C function is `open`.
    public static func open(_ path: String, writable: Bool, system: any ForceFeedbackSystem) throws(SystemError) -> any ForceFeedbackDevice {
        while true {
            if let device = system.open(path, writable: writable) { return device }
            let code = errno
            if code != EINTR { throw SystemError(operation: "open", code: code) }
        }
    }

    /// The device's rumble capabilities, or `nil` when it has no `EV_FF`/`FF_RUMBLE`.
    public static func probe(_ device: any ForceFeedbackDevice, path: String) throws(SystemError) -> RumbleDeviceInfo? {
        var types = [UInt8](repeating: 0, count: EvdevCode.eventTypeBitsByteCount)
        try checkedCall("EVIOCGBIT(0)") { device.getBits(eventType: EvdevCode.evSyn, into: &types) }
        guard EvdevCode.test(types, EvdevCode.evFF) else { return nil }
        var ff = [UInt8](repeating: 0, count: EvdevCode.ffBitsByteCount)
        try checkedCall("EVIOCGBIT(EV_FF)") { device.getBits(eventType: EvdevCode.evFF, into: &ff) }
        guard EvdevCode.test(ff, EvdevCode.ffRumble) else { return nil }
        var name = [UInt8](repeating: 0, count: 256)
        try checkedCall("EVIOCGNAME") { device.getName(into: &name) }
        var slots: Int32 = 0
        try checkedCall("EVIOCGEFFECTS") { device.getEffectSlots(into: &slots) }
        let other = [(EvdevCode.ffPeriodic, "periodic"), (EvdevCode.ffConstant, "constant")]
            .filter { EvdevCode.test(ff, $0.0) }.map(\.1)
        return RumbleDeviceInfo(
            path: path, name: String(decoding: name.prefix { $0 != 0 }, as: UTF8.self), effectSlots: Int(slots),
            supportsGain: EvdevCode.test(ff, EvdevCode.ffGain), otherEffects: other)
    }
}
