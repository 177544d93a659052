import CabinAudio
import CEspeakNG
import Glibc
import Synchronization

/// Text to speech with libespeak-ng, returned as samples (no audio device involved): the
/// voice prompts of the sound library are spoken with it, and the same wrapper can speak
/// live text when a session loads.
///
/// espeak-ng is one engine per process; calls are serialised by a lock.
///
/// Repeatable speech: espeak-ng draws its breath noise from the C library's `rand()` and
/// its pitch flutter from a counter that keeps running from one utterance to the next, so
/// the same text can come out differently depending on what was said before. Each
/// `synthesize` therefore reseeds `rand()` (with `seed`), and the default voice is a
/// variant without flutter (`en-us+Alex`): the same text then gives the same samples in
/// any order, in any process. (Re-initialising espeak-ng between utterances would reset
/// it too, but `espeak_Synth` hangs after `espeak_ng_Terminate` + `espeak_ng_Initialize`
/// in 1.51.)
///
/// Thread: control thread only (blocking, allocates).
///
/// ```swift
/// let speech = try SpeechSynthesizer(wordsPerMinute: 160)
/// let buffer = try speech.synthesize("Halfway to your destination")   // mono, 22050 Hz
/// ```
public final class SpeechSynthesizer: SpeechSource, @unchecked Sendable {
    /// The espeak-ng voice it speaks with (`en-us+Alex`: a language and a variant).
    public let voice: String
    /// The speaking rate, in words per minute (espeak-ng's `espeakRATE`: 80…450).
    public let wordsPerMinute: Int
    /// The base pitch (espeak-ng's `espeakPITCH`: 0…100, 50 normal).
    public let pitch: Int
    /// The seed given to `srand` before each utterance.
    public let seed: UInt32
    /// espeak-ng's native rate (22050 Hz).
    public let sampleRate: Double

    private let espeak: EspeakNGLibrary
    nonisolated(unsafe) private static var initialized = false
    nonisolated(unsafe) private static var collected: [Int16] = []

    /// The voice the built-in prompts use (and `say` cues, unless they name another).
    public static let defaultVoice = "en-us+Alex"

    /// Opens libespeak-ng (the first time; see `EspeakNGLibrary`) and initialises it in
    /// retrieval mode (samples come back through a callback, nothing is played). The
    /// corresponding C functions are `dlopen`, `espeak_ng_InitializePath`,
    /// `espeak_ng_Initialize`, `espeak_ng_InitializeOutput` (synchronous, no audio) and
    /// `espeak_SetSynthCallback`. Throws when libespeak-ng cannot be opened or initialised;
    /// `voice` is set, and checked, each time it speaks.
    public init(voice: String = SpeechSynthesizer.defaultVoice, wordsPerMinute: Int = 160, pitch: Int = 45,
                seed: UInt32 = 1) throws(SystemError) {
        self.voice = voice
        self.seed = seed
        self.wordsPerMinute = wordsPerMinute
        self.pitch = pitch
        let espeak = try EspeakNGLibrary.shared.get()
        self.espeak = espeak
        sampleRate = try SpeechEngineLock.shared.withLock { _ throws(SystemError) in
            try Self.initialize(espeak)
            return Double(espeak.getSampleRate())
        }
    }

    /// Once per process, under the lock.
    private static func initialize(_ espeak: EspeakNGLibrary) throws(SystemError) {
        if !Self.initialized {
            espeak.initializePath(nil)
            var context: espeak_ng_ERROR_CONTEXT?
            try espeak.check(espeak.initialize(&context), "espeak_ng_Initialize")
            try espeak.check(espeak.initializeOutput(ENOUTPUT_MODE_SYNCHRONOUS, 0, nil), "espeak_ng_InitializeOutput")
            espeak.setSynthCallback { samples, count, _ in
                if let samples, count > 0 {
                    SpeechSynthesizer.collected.append(contentsOf: UnsafeBufferPointer(start: samples, count: Int(count)))
                }
                return 0
            }
            Self.initialized = true
        }
    }

    /// Speaks `text` and returns mono samples at espeak-ng's rate. The corresponding C
    /// functions are `espeak_ng_SetVoiceByName`, `espeak_SetParameter`, `srand` and
    /// `espeak_Synth`.
    public func synthesize(_ text: String) throws(SystemError) -> AudioBuffer {
        try SpeechEngineLock.shared.withLock { _ throws(SystemError) in try synthesizeLocked(text) }
    }

    private func synthesizeLocked(_ text: String) throws(SystemError) -> AudioBuffer {
        try espeak.check(espeak.setVoiceByName(voice), "espeak_ng_SetVoiceByName(\(voice))")
        try espeak.check(espeak.setParameter(espeakRATE, Int32(wordsPerMinute), 0), "espeak_ng_SetParameter(rate)")
        try espeak.check(espeak.setParameter(espeakPITCH, Int32(pitch), 0), "espeak_ng_SetParameter(pitch)")
        Self.collected.removeAll(keepingCapacity: true)
        srand(seed)
        let bytes = Array(text.utf8CString)
        let status = bytes.withUnsafeBufferPointer { p in
            espeak.synth(p.baseAddress, p.count, 0, POS_CHARACTER, 0, UInt32(espeakCHARS_UTF8), nil, nil)
        }
        guard status == EE_OK else {
            throw SystemError(operation: "espeak_Synth", code: 0, reason: "espeak-ng error \(status.rawValue)")
        }
        try espeak.check(espeak.synchronize(), "espeak_ng_Synchronize")
        let samples = Self.collected.map { Float($0) / 32768 }
        return AudioBuffer(samples: samples, channelCount: 1, sampleRate: sampleRate)
    }

    /// `SpeechSource`: speech resampled (soxr) to `sampleRate`.
    public func speak(_ text: String, sampleRate: Double) throws -> [Float] {
        let native = try synthesize(text)
        guard native.frameCount > 0 else { throw SystemError(operation: "espeak_Synth", code: 0, reason: "no audio for \"\(text)\"") }
        return try Resampler.resample(native, to: sampleRate).samples
    }
}

/// The one lock every speech engine's work runs under. Flite's clustergen voices and
/// espeak-ng both draw noise from the C library's process-wide `rand()`, each reseeding it
/// (`srand`) before an utterance; under separate locks, one engine speaking while the other
/// does would move the other's sequence, and the same session would not render the same
/// bytes twice (seen as a flaky `fliteSpeechDoesNotDependOnWhatWasSaidBefore`). Each engine's
/// own state (espeak-ng's callback buffer, Flite's loaded voices) is guarded by it too.
///
/// Thread: any thread except the render thread (it blocks).
enum SpeechEngineLock {
    static let shared = Mutex(())
}
