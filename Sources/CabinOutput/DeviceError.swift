/// Why a device could not be used: a kind the caller can act on (``AudioDeviceError`` for
/// playback on any backend, `ForceFeedbackError` for rumble), the device as named, the operation that
/// failed and its code. Prints as one line that says what to try.
///
/// Thread: a value type; any thread.
public struct DeviceError<Failure: DeviceFailure>: Error, Sendable, Equatable, CustomStringConvertible {
    /// The family's kinds (``AudioDeviceFailure``, `ForceFeedbackFailure`).
    public typealias Kind = Failure

    /// What kind of failure it is: what an app switches on.
    public var kind: Kind
    /// The device as given: an ALSA name (`default`, `hw:0,0`) or a device node
    /// (`/dev/input/event5`).
    public var device: String
    /// The call that failed, e.g. `snd_pcm_open`, `EVIOCSFF`, `open`.
    public var operation: String
    /// The errno (ALSA's negative code made positive), 0 if none.
    public var code: Int32
    /// The cause in words (`snd_strerror` plus ALSA's own message, or `strerror`).
    public var detail: String

    /// A failure of `kind` on `device`: `operation` failed with errno `code` (0: none),
    /// `detail` its cause in words.
    public init(_ kind: Kind, device: String, operation: String, code: Int32, detail: String) {
        self.kind = kind
        self.device = device
        self.operation = operation
        self.code = code
        self.detail = detail
    }

    /// What a user can do about it.
    public var advice: String { kind.advice }

    /// The one line it prints, what the family's `describe` makes: what failed and what to try.
    public var description: String { Kind.describe(self) }
}

/// The kinds of one family of device failures, each with its advice and its one-line form.
///
/// Thread: plain values; any thread.
public protocol DeviceFailure: Sendable, Equatable {
    /// What a user can do about it.
    var advice: String { get }
    /// The one line ``DeviceError`` prints.
    static func describe(_ error: DeviceError<Self>) -> String
}
