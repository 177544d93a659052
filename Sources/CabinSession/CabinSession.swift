// CabinSession — session documents (docs/SESSION-FORMAT.md, version 1), their validation, and
// the timeline that drives the mixer and the haptic players.
//
// A pure module: no C, no I/O. Callers hand it the document's bytes and its display name;
// `CabinPlayback` and the CLI read files and resolve sounds.
//
// Example:
//
//     let result = SessionReader.read(bytes, file: "drive.json")
//     for diagnostic in result.diagnostics { print(diagnostic) }
//     // drive.json:14:26: error: cues[3].over: "3x" is not a duration: use 1h2m3s, 90s, 250ms or m:s
//     if let session = result.document { print(session.title ?? "untitled", session.layers.count) }
//
// Haptic cues: `CabinPlayback` loads the patterns they name (`ResolvedHaptics`); the compiler
// places them at their cues' frames (`CompiledSession.haptics`, `.hapticPatterns`), and
// `SessionHapticTrack` renders them as one mono track aligned with the mix. With
// `SessionCompileOptions.hapticsBusGain` they also play on a `haptics` bus of the mix
// (off by default).
//
// Thread: every type here is a Sendable value; functions are pure and may run on any
// thread except the render thread (they allocate).
