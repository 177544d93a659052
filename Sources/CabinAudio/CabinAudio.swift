// CabinAudio — the pure audio core: buffers, decibels, signal analysis, and the real-time
// mixer with its offline renderer. No C modules, no I/O: everything here runs and is tested
// offline, deterministically, at any block size.
//
// The mixer follows kira's pattern, Config → make() → processor + handle:
//
//     var config = MixerConfig(sampleRate: 48_000)          // Focus Drive buses by default
//     config.ducking = [DuckingRule(when: config.bus(named: "voice")!,
//                                   duck: ["radio", "ambient", "engine"].compactMap(config.bus(named:)),
//                                   depth: -12, attackDuration: 0.04, releaseDuration: 0.6)]
//     let speed = config.addParameter("speed", value: 62, range: 0...80)
//     let v6 = config.addAsset(engineLoop, trim: -2.5, loop: LoopPoints(start: 0, end: engineLoop.frameCount))
//     let engine = config.addLayer(LayerConfig(
//         name: "engine", bus: config.bus(named: "engine")!, source: .asset(v6), isLooping: true,
//         pitchMap: ParameterMap(parameter: speed, points: [(0, 0.7), (80, 1.4)])))
//     let (mixer, handle) = config.make()
//
//     // control thread: schedule on the engine clock (frames)
//     handle.send(.startLayer(engine, fadeInFrames: handle.frames(2)), at: handle.frames(1.5))
//     handle.send(.setParameter(speed, to: 0, overFrames: handle.frames(4)), at: handle.frames(1_500))
//     handle.setParameter(speed, to: 70)                     // live: the user pressed +
//
//     // audio thread (or an offline loop): interleaved stereo
//     buffer.withUnsafeMutableBufferPointer { mixer.render(into: $0, frameCount: 256) }
//
// Threads: `MixerConfig` and `MixerHandle` belong to the control thread; `Mixer.render` to
// the audio thread, which alone owns the `Mixer` while it runs. Render never allocates,
// locks, throws, prints or does I/O (checked by `@_noAllocation`/`@_noLocks` in release
// builds and by `cabin-alloc-check`, which counts mallocs with malloc-interposer).
//
// Bus effects: `BusConfig.effects` holds descriptions (`LowPassEffect.Description(cutoff:
// 20_000)`, `CompressorEffect.Description(threshold: -20)`); `make()` builds the
// `BusEffect`s, and `.setEffectParameter` moves them. Each effect's `declaration`
// (`BusEffectDeclaration`) names its parameters for documents.
//
// Session documents map onto it one to one: `buses` → `MixerConfig.buses` (add with
// `addBus`; a bus object's `lowpass` or `compressor` → its effect in `effects`), `ducking` →
// `DuckingRule`s, `parameters` → `addParameter`, `layers` → `addLayer` (sounds registered
// with `addAsset`, `synth:` names → `.synth(Synth(named:))`, the kinds listed in
// `Synth.kinds`), and each cue verb → one `MixerCommand.Action` at the cue's frame (`play` →
// `.playOneShot`, `start`/`stop` → `.startLayer`/`.stopLayer`, `fade` → `.fadeLayer`,
// `crossfade` → `.crossfadeLayer`, `set` → `.setParameter`, `lowpass`/`compressor` → `.setEffectParameter`).
