import CALSA
import CabinAudio
import CCabinShims
import CabinOutput
import Glibc

/// Small helpers shared by the ALSA wrappers.
enum ALSA {
    /// Routes the ALSA library's stderr chatter into Cabin's errors. Idempotent.
    /// The corresponding C function is `snd_lib_error_set_handler` (through a C shim).
    static let captureErrors: Void = { cabin_alsa_capture_errors() }()

    /// `snd_strerror` plus the library's last message on this thread, if any.
    /// The corresponding C function is `snd_strerror`.
    static func describe(_ err: Int32) -> String {
        let base = String(cString: snd_strerror(err))
        // ALSA's plugins end some messages with a newline (PulseAudio's "Unable to connect"):
        // errors stay one line.
        let library = String(cString: cabin_alsa_take_last_error())
            .split(whereSeparator: { $0 == "\n" || $0 == "\r" }).map { $0.trimmingWhitespace() }
            .filter { !$0.isEmpty }.joined(separator: " ")
        return library.isEmpty || library == base ? base : "\(base); ALSA: \(library)"
    }

    /// Maps a negative ALSA return to an `AudioDeviceError` kind.
    static func kind(for err: Int32) -> AudioDeviceError.Kind {
        switch -err {
        case ENOENT, ENXIO: .notFound
        case EBUSY, EAGAIN: .busy
        case EACCES, EPERM: .permissionDenied
        case EINVAL: .unsupportedConfiguration
        case ENODEV, ESHUTDOWN, EBADFD, EPIPE, ECONNREFUSED, ECONNRESET, EIO, ENOTCONN: .disconnected
        default: .failed
        }
    }

    static func error(_ err: Int32, device: String, operation: String,
                      kind: AudioDeviceError.Kind? = nil) -> AudioDeviceError {
        AudioDeviceError(kind ?? ALSA.kind(for: err), device: device, operation: operation,
                         code: -err, detail: describe(err))
    }
}

/// An ALSA PCM that Cabin can play to, as `aplay -L` lists them.
public struct ALSADevice: Sendable, Equatable, Codable {
    /// The name to pass to `-D`, e.g. `default`, `hw:CARD=PCH,DEV=0`.
    public var name: String
    /// ALSA's description, one line.
    public var description: String
}

/// Listing ALSA playback devices.
///
/// Thread: control thread only.
public enum ALSADevices {
    /// Playback PCMs from ALSA's name hints (what `aplay -L` shows), in ALSA's order.
    /// The corresponding C functions are `snd_device_name_hint`,
    /// `snd_device_name_get_hint` and `snd_device_name_free_hint`.
    public static func playback() -> [ALSADevice] {
        _ = ALSA.captureErrors
        var hints: UnsafeMutablePointer<UnsafeMutableRawPointer?>?
        guard snd_device_name_hint(-1, "pcm", &hints) == 0, let hints else { return [] }
        defer { snd_device_name_free_hint(hints) }
        var devices: [ALSADevice] = []
        var i = 0
        while let hint = hints[i] {
            i += 1
            let name = takeHint(hint, "NAME")
            let io = takeHint(hint, "IOID")
            guard let name, io == nil || io == "Output" else { continue }
            let desc = takeHint(hint, "DESC")?.split(separator: "\n").joined(separator: " — ") ?? ""
            devices.append(ALSADevice(name: name, description: desc))
        }
        return devices
    }

    /// Whether any of `devices` leads to sound: ALSA's `default` (a card or a sound server),
    /// or a card's own `hw:`/`plughw:`/`sysdefault:` device. Plugin PCMs such as `null`,
    /// `jack` or `lavrate` alone do not count.
    public static func hasSoundDevice(_ devices: [ALSADevice] = playback()) -> Bool {
        devices.contains { $0.name == "default" || ["hw:", "plughw:", "sysdefault:", "front:"].contains(where: $0.name.hasPrefix) }
    }

    private static func takeHint(_ hint: UnsafeMutableRawPointer, _ id: String) -> String? {
        guard let p = snd_device_name_get_hint(hint, id) else { return nil }
        defer { free(p) }
        return String(cString: p)
    }
}
