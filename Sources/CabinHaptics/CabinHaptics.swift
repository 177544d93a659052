// CabinHaptics — haptic patterns: AHAP and Meta/Lofelt `.haptic` readers with located
// diagnostics, a compiler to intensity/sharpness event streams, haptics rendered as audio,
// exports (normalized AHAP, Android waveform and composition primitives, SVG plot, terminal preview, JSON/CSV
// streams), and rumble plans for dual-motor devices (`RumbleMapping`, `RumblePlan`).
//
// A pure module: the C library's math (Glibc) at most, no Foundation, no I/O. Readers take
// bytes plus a display file name.
//
// Example:
//
//     let result = HapticReader.read(bytes, file: "Boing.ahap")        // lenient by default
//     for diagnostic in result.diagnostics { print(diagnostic) }       // FILE:LINE:COL: warning: PATH: …
//     if let pattern = result.pattern {
//         let compiled = HapticCompiler.compile(pattern)               // breakpoints + transients
//         let stream = compiled.sampled(rate: 1000)                    // 1 kHz arrays for devices
//         let audio = HapticAudioRenderer.synthesize(compiled)             // Float samples, peak ≤ −1 dBFS
//         print(HapticPreview.sparkline(compiled))
//     }
//
// The documented choices, each explained where it is made:
// - limits (`HapticLimits`): 100 000 events; 100 000 parameters+curves and control points;
//   nothing later than 3600 s; continuous events capped at 30 s with a warning; more than 16
//   points per curve is a warning (Apple's engine limit);
// - envelope (`HapticEnvelopeShape`): time parameter v → 2 ms × 1000^v; sustained = linear
//   attack, hold, linear release after the end; not sustained = attack then decay inside;
// - controls (`HapticCompiler`): intensity control multiplies, sharpness control adds then
//   clamps, for the continuous track and every transient; the latest-started step or curve
//   decides; overlapping events add, sharpness is their intensity-weighted mean;
// - tail: the last release, or a transient's 20 ms, whichever ends later;
// - `.haptic` (`LofeltHapticReader`): intensity = √amplitude, sharpness = √frequency, each
//   emphasis → a transient; event-local envelopes so transients keep their own intensity;
// - audio (`HapticAudioRenderer`): sharpness → 60…300 Hz (log), amplitude ∝ intensity,
//   6 ms one-pole smoothing, 20 ms bursts, one normalisation gain to −1 dBFS;
// - rumble (`RumbleMapping.equalPowerSplit`, `RumblePlan`): strong = I·cos(πs/2),
//   weak = I·sin(πs/2); 50 ms steps, pieces refreshed every second, transients ≥ 30 ms.
// - Android composition (`AndroidComposition`): transients → CLICK/TICK/THUD/LOW_TICK by
//   sharpness ≥ 0.5 and intensity ≥ 0.5, rises/falls of ≥ 0.1 → QUICK_RISE (≤ 200 ms) /
//   SLOW_RISE / QUICK_FALL; held levels have no primitive (reported).
//
// Thread safety: every type is a `Sendable` value; every function is pure and may be called
// from any thread except the real-time render thread (they allocate).
