import CabinAudio
import CabinHaptics
import CabinIO
import CabinJSON
import CabinPlayback

/// Where the page's device buttons play a pattern besides the browser: this machine's rumble
/// pad (evdev force feedback, as `haptics play --rumble`) and DualSense (its 4-channel USB
/// audio: the haptics on channels 3–4 and the pattern's own sound on 1–2, as
/// `haptics play --dualsense`). Each is a device, or why there is none (the button is then
/// disabled and says so).
///
/// Thread: a value type; any thread (`find` on the control thread: it lists devices).
public struct StudioDevices: Sendable {
    /// One of the page's two device buttons; the raw value is the case's name.
    public enum Kind: String, Sendable, CaseIterable {
        /// The rumble pad (evdev force feedback).
        case rumble
        /// The DualSense (its USB audio's haptics channels).
        case dualsense

        /// What the button says.
        public var label: String { self == .rumble ? "play on rumble pad" : "play on DualSense" }
    }

    /// One button's device, or why there is none.
    public struct Target: Sendable, Equatable {
        /// The evdev node (rumble) or ALSA device (DualSense); nil: none.
        public var device: String?
        /// The device as the page names it, or why there is none.
        public var detail: String

        /// A button's target: `device` (nil: none) and `detail`, what the page says of it.
        public init(device: String?, detail: String) {
            self.device = device
            self.detail = detail
        }
    }

    /// The rumble pad's button: an evdev node (`/dev/input/event5`), or why there is none.
    public var rumble: Target
    /// The DualSense button: an ALSA device (`hw:CARD=Controller`), or why there is none.
    public var dualsense: Target
    /// How intensity and sharpness drive the rumble pad's two motors.
    public var mapping: RumbleMapping

    /// The two buttons' targets and the rumble mapping (`find` looks the devices up).
    public init(rumble: Target, dualsense: Target, mapping: RumbleMapping = .equalPowerSplit) {
        self.rumble = rumble
        self.dualsense = dualsense
        self.mapping = mapping
    }

    /// No device at all (a library user that plays only in the page).
    public static let none = StudioDevices(rumble: Target(device: nil, detail: "no rumble pad"),
                                           dualsense: Target(device: nil, detail: "no DualSense"))

    /// The target of the button `kind`.
    public subscript(kind: Kind) -> Target { kind == .rumble ? rumble : dualsense }

    /// The devices this machine has: the rumble pad `rumble` (an evdev node) if given, else
    /// the first rumble device `cabin devices --rumble` lists; the DualSense audio device
    /// `dualsense` (an ALSA name) if given, else the first ALSA playback device that says it
    /// is a DualSense ("Wireless Controller", its USB audio's name).
    public static func find(rumble: String?, dualsense: String?, mapping: RumbleMapping = .equalPowerSplit) -> StudioDevices {
        let pad: Target
        if let rumble {
            pad = Target(device: rumble, detail: rumble)
        } else {
            let listing = RumbleDevices.list()
            if let first = listing.devices.first {
                pad = Target(device: first.path, detail: "\(first.name) (\(first.path))")
            } else {
                var why = listing.scanned == 0
                    ? "no rumble pad: this machine has no input devices (/dev/input/event*)"
                    : "no rumble pad among \(listing.scanned) input device\(listing.scanned == 1 ? "" : "s")"
                if let unreadable = listing.unreadableSummary { why += " (\(unreadable))" }
                pad = Target(device: nil, detail: why)
            }
        }
        let controller: Target
        if let dualsense {
            controller = Target(device: dualsense, detail: dualsense)
        } else {
            let found = ALSADevices.playback().filter { $0.description.contains("Wireless Controller") || $0.description.contains("DualSense") }
            if let device = found.first(where: { $0.name.hasPrefix("hw:") }) ?? found.first {
                controller = Target(device: device.name, detail: "\(device.description) (\(device.name))")
            } else {
                controller = Target(device: nil, detail: "no DualSense among the sound devices (name its audio with --dualsense, e.g. hw:CARD=Controller)")
            }
        }
        return StudioDevices(rumble: pad, dualsense: controller, mapping: mapping)
    }

    /// The page's `devices.json`: `{"rumble": {"label", "available", "detail"}, "dualsense": …}`.
    var json: JSONValue {
        .object(Kind.allCases.map { kind in
            (kind.rawValue, .object([("label", .string(kind.label)), ("available", .bool(self[kind].device != nil)),
                                     ("detail", .string(self[kind].detail))]))
        })
    }
}
