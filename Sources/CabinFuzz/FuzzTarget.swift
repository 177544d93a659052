import CabinHaptics
import CabinJSON
import CabinSession

/// What `cabin-fuzz` feeds its input to: each target is a reader that must answer any bytes
/// with a value or diagnostics — never a crash, a trap or a hang — and what it accepts must
/// compile (and, for sessions, render) without one.
///
/// Thread: any one thread at a time.
enum FuzzTarget: String, CaseIterable {
    /// The lenient JSON parser (every document reader stands on it).
    case json
    /// The AHAP reader, then the haptic compiler on what it accepts.
    case ahap
    /// The Lofelt/Meta `.haptic` reader, then the compiler.
    case haptic
    /// The session reader, the session compiler (no sounds loaded: every sound is silent)
    /// and a quarter of a second rendered from the start.
    case session

    /// Runs one input through the target.
    func run(_ bytes: [UInt8]) {
        switch self {
        case .json:
            _ = JSONParser.parse(bytes, file: "fuzz.json", options: .lenient)
            _ = JSONParser.parse(bytes, file: "fuzz.json", options: .strict)
        case .ahap:
            if let pattern = AHAPReader.read(bytes, file: "fuzz.ahap").pattern { _ = HapticCompiler.compile(pattern) }
        case .haptic:
            if let pattern = LofeltHapticReader.read(bytes, file: "fuzz.haptic").pattern { _ = HapticCompiler.compile(pattern) }
        case .session:
            guard let document = SessionReader.read(bytes, file: "fuzz.json").document else { return }
            let compiled = SessionCompiler.compile(document, sounds: ResolvedSounds(), sampleRate: 8000, maxBlockFrames: 256)
            let runner = SessionRunner(compiled)
            var block = [Float](repeating: 0, count: 2 * 256)
            block.withUnsafeMutableBufferPointer { out in
                for _ in 0..<8 where runner.render(into: out, frameCount: 256) == 256 {}
            }
        }
    }
}
