import ArgumentParser
import CabinAudio
import CabinHaptics

/// `--as DEVICE` of `haptics show`, `plot` and `render`: what a device will actually play
/// of the pattern (`HapticDeviceView`), instead of the pattern as designed.
struct HapticsDeviceViewArguments: ParsableArguments {
    @Option(name: .customLong("as"), help: ArgumentHelp(
        "Show what a device plays: rumble[:MAPPING] (the two motor magnitudes as the evdev path sends them), android (the createWaveform export's 10 ms steps) or android-composition (the primitives in their nominal shapes).",
        valueName: "device"))
    var device: String?

    func validate() throws {
        if let device, HapticDeviceView.Device(argument: device) == nil {
            throw ValidationError("--as must be \(HapticDeviceView.Device.accepted), not '\(device)'".terminalSafe)
        }
    }

    /// The device named, or nil for the pattern as designed.
    var parsed: HapticDeviceView.Device? { device.flatMap(HapticDeviceView.Device.init(argument:)) }

    /// `, as rumble:equal-power-split` after a summary, or nothing.
    var note: String { parsed.map { ", as \($0.name)" } ?? "" }
}
