import Glibc

/// Why a rumble device could not be used, as a kind the caller can act on, with the device
/// path, the operation and errno. Prints as one line that says what to try.
///
/// Thread: a value type; any thread.
public struct ForceFeedbackError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
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
    }

    public var kind: Kind
    /// The device node, e.g. `/dev/input/event5`.
    public var device: String
    /// What was being done, e.g. `EVIOCSFF` or `open`.
    public var operation: String
    /// errno (0 if none).
    public var code: Int32
    public var detail: String

    public init(_ kind: Kind, device: String, operation: String, code: Int32, detail: String) {
        self.kind = kind
        self.device = device
        self.operation = operation
        self.code = code
        self.detail = detail
    }

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

    public var advice: String {
        switch kind {
        case .notFound: "list rumble devices with 'cabin devices'"
        case .permissionDenied: "add yourself to the 'input' group (then log in again), or use a udev rule"
        case .disconnected: "reconnect the controller and play again"
        case .unsupported: "this device has no rumble; list rumble devices with 'cabin devices'"
        case .busy: "close the program (game, emulator) that holds its force-feedback slots"
        case .failed: "see 'cabin devices'"
        }
    }

    public var description: String {
        let what = code != 0 ? "\(operation): \(detail) (errno \(code))" : "\(operation): \(detail)"
        return "rumble device \(device): \(what); \(advice)"
    }
}
