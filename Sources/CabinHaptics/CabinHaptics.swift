// CabinHaptics — haptic patterns: AHAP and Meta/Lofelt `.haptic` readers with located
// diagnostics, a compiler to intensity/sharpness event streams, and a haptics-to-audio render.
//
// A pure module: Foundation at most, no I/O. Readers take bytes plus a display file name.
//
// Example:
//
//     let result = AHAPReader.read(bytes, file: "Boing.ahap")          // lenient by default
//     for diagnostic in result.diagnostics { print(diagnostic) }       // FILE:LINE:COL: warning: PATH: …
//     if let pattern = result.pattern {
//         let compiled = HapticCompiler.compile(pattern)               // breakpoints + transients
//         let stream = compiled.sampled(rate: 1000)                    // 1 kHz arrays for devices
//         let audio = HapticAudioRenderer.render(compiled)             // Float samples, ≤ −1 dBFS
//     }
//
// Thread safety: every type is a `Sendable` value; every function is pure and may be called
// from any thread except the real-time render thread (they allocate).
