import CabinIO
import CabinOutput
import CabinPlayback
import CabinSession

/// The CLI's words for the library's errors. The library says what happened in terms of its
/// own (a preset's option `minutes`, a device's kind and neutral advice); `cabin` names its
/// commands and flags: `--minutes must be …`, "list playback devices with 'cabin devices'".
extension CLIOutput {
    /// Prints `cabin: error: LINE`, the line `error`'s in the CLI's words (`commandLine`).
    static func error(_ error: any Error) {
        CLIOutput.error(commandLine(error))
    }

    /// `error` as the CLI says it: a device's advice names `cabin devices` and `-D none`, a
    /// preset's options are flags; any other error is its own description.
    static func commandLine(_ error: any Error) -> String {
        switch error {
        case let error as AudioDeviceError: error.commandLine
        case let error as ForceFeedbackError: error.commandLine
        case let error as PresetError: error.commandLine
        case let error as SessionSource.Failure: error.commandLine
        default: "\(error)"
        }
    }
}

extension DeviceError where Failure == AudioDeviceFailure {
    /// The one line with advice for a person at a terminal.
    var commandLine: String {
        if isNoSoundServer {
            return "audio device \"\(device)\": no sound server answers (\(operation): \(detail)); "
                + "start PulseAudio or PipeWire, pick a device from 'cabin devices', or play silently with -D none"
        }
        let advice = switch kind {
        case .notFound: "list playback devices with 'cabin devices'"
        case .failed: "see 'cabin devices'"
        case .busy, .permissionDenied, .unsupportedConfiguration, .disconnected: kind.advice
        }
        return "\(happened); \(advice)"
    }
}

extension DeviceError where Failure == ForceFeedbackFailure {
    /// The one line with advice for a person at a terminal.
    var commandLine: String {
        let advice = switch kind {
        case .notFound: "list rumble devices with 'cabin devices'"
        case .unsupported: "this device has no rumble; list rumble devices with 'cabin devices'"
        case .failed: "see 'cabin devices'"
        case .permissionDenied, .disconnected, .busy: kind.advice
        }
        return "\(happened); \(advice)"
    }
}

extension PresetError {
    /// The message with the preset's options as the flags that give them (`--minutes`).
    var commandLine: String { spelled { "--" + $0 } }
}

extension SessionSource.Failure {
    /// The failure with a preset's options as flags.
    var commandLine: String {
        switch self {
        case .preset(let error): error.commandLine
        case .soundFile: description
        }
    }
}
