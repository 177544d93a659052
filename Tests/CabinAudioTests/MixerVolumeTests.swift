import CabinAudio
import CabinTestSupport
import Testing

/// The listener's volumes (`MixerHandle.setVolume`): on top of the session's gains, never
/// moved by them, and changing no bit while unset.
@Suite struct MixerVolumeTests {
    /// Two sine layers, one on each of two buses.
    static func scene() -> (MixerConfig, [MixerCommand]) {
        var config = Render.config(buses: [("engine", 0), ("radio", -6)])
        let a = config.addLayer(LayerConfig(name: "a", bus: BusID(index: 0), source: .synth(.sine(frequency: 440)), isLooping: true))
        let b = config.addLayer(LayerConfig(name: "b", bus: BusID(index: 1), source: .synth(.sine(frequency: 660)), isLooping: true))
        return (config, [MixerCommand(at: 0, .startLayer(a, fadeInFrames: 0)), MixerCommand(at: 0, .startLayer(b, fadeInFrames: 0))])
    }

    static func render(_ volumes: (MixerHandle) -> Void, extra: [MixerCommand] = [], frames: Int = 24_000,
                       only bus: Int? = nil) -> [Float] {
        var (config, commands) = scene()
        if let bus { commands = [commands[bus]] }
        let (mixer, handle) = config.make()
        for command in commands + extra { _ = handle.send(command) }
        volumes(handle)
        return Render.run(mixer, frameCount: frames, blockSize: 256)
    }

    @Test func unsetOrZeroVolumesChangeNoBit() {
        let plain = Self.render { _ in }
        let zero = Self.render { handle in
            handle.setVolume(0, bus: nil)
            handle.setVolume(0, bus: BusID(index: 1))
        }
        #expect(plain == zero)
    }

    @Test func aBusVolumeScalesOnlyThatBusAfterItsRamp() {
        let plain = Self.render({ _ in }, only: 1)
        let quieter = Self.render({ $0.setVolume(-6, bus: BusID(index: 1)) }, only: 1)
        let tail = 4_800..<24_000   // after the 50 ms ramp
        let ratio = Render.rmsDecibels(Array(quieter[tail])) - Render.rmsDecibels(Array(plain[tail]))
        #expect(abs(ratio - -6) < 0.01, "\(ratio) dB")
        // The other bus is untouched.
        let engine = Self.render({ $0.setVolume(-6, bus: BusID(index: 1)) }, only: 0)
        #expect(engine == Self.render({ _ in }, only: 0))
    }

    @Test func theSessionsGainCuesDoNotMoveTheVolume() {
        // The session sets the radio bus to -6 dB at frame 0 (its own gain): the listener's
        // -10 dB stays on top.
        let cue = MixerCommand(at: 0, .setBusGain(BusID(index: 1), to: -6, overFrames: 0))
        let plain = Self.render({ _ in }, extra: [cue], only: 1)
        let quieter = Self.render({ $0.setVolume(-10, bus: BusID(index: 1)) }, extra: [cue], only: 1)
        let tail = 4_800..<24_000
        #expect(abs(Render.rmsDecibels(Array(quieter[tail])) - Render.rmsDecibels(Array(plain[tail])) - -10) < 0.01)
    }

    @Test func masterVolumeAndSilence() {
        let plain = Self.render { _ in }
        let louder = Self.render { $0.setVolume(3, bus: nil) }
        let muted = Self.render { $0.setVolume(.silence, bus: nil) }
        let tail = 4_800..<24_000
        #expect(abs(Render.rmsDecibels(Array(louder[tail])) - Render.rmsDecibels(Array(plain[tail])) - 3) < 0.01)
        #expect(muted[tail].allSatisfy { $0 == 0 })
        // The ramp: no jump (the first frames still sound, fading).
        #expect(muted[0..<200].contains { $0 != 0 })
    }
}
