import CabinOutput
import Glibc

/// Why a rumble device could not be used, with the device path, the operation and errno.
public typealias ForceFeedbackError = DeviceError<ForceFeedbackFailure>

/// The ways a force-feedback (evdev) device fails, as kinds the caller can act on.
public enum ForceFeedbackFailure: DeviceFailure {
    /// No such device node.
    case notFound
    /// The user may not open it (not in the `input` group).
    case permissionDenied
    /// It went away while in use (`ENODEV`: unplugged, powered off).
    case disconnected
    /// It cannot rumble: no `EV_FF`/`FF_RUMBLE`, or no effect slots.
    case unsupported
    /// It has no free effect slot (`ENOSPC`): another program holds them.
    case busy
    /// Anything else.
    case failed

    /// What to try, in words that name no program: an app shows it as it is, or switches on
    /// the kind and says it its own way (the `cabin` CLI names its commands).
    public var advice: String {
        switch self {
        case .notFound: "check the path against the machine's rumble devices (/dev/input/event*)"
        case .permissionDenied: "add yourself to the 'input' group (then log in again), or use a udev rule"
        case .disconnected: "reconnect the controller and play again"
        case .unsupported: "this device has no rumble"
        case .busy: "close the program (game, emulator) that holds its force-feedback slots"
        case .failed: "check that it is one of the machine's rumble devices"
        }
    }

    public static func describe(_ e: ForceFeedbackError) -> String { "\(e.happened); \(e.advice)" }
}

extension DeviceError where Failure == ForceFeedbackFailure {
    /// The one line without the advice: the device, the call that failed and why.
    public var happened: String {
        let what = code != 0 ? "\(operation): \(detail) (errno \(code))" : "\(operation): \(detail)"
        return "rumble device \(device): \(what)"
    }
}

extension DeviceError where Failure == ForceFeedbackFailure {
    /// Classifies a failed system call.
    public init(_ error: SystemError, device: String) {
        let kind: Kind = switch error.code {
        case ENOENT, ENXIO: .notFound
        case EACCES, EPERM: .permissionDenied
        case ENODEV: .disconnected
        case ENOSPC: .busy
        case EINVAL, ENOTTY, ENOSYS: .unsupported
        default: .failed
        }
        self.init(kind, device: device, operation: error.operation, code: error.code, detail: error.reason)
    }
}
