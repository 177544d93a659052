import CabinAudio
import CFlite
import Glibc
import Synchronization

/// Text to speech with CMU Flite's clustergen voices (Debian's libflite1: `slt`, `awb`,
/// `rms`; US English), returned as samples. Cabin's default English voice: a statistical
/// parametric voice with the pitch movement of a recorded speaker, where espeak-ng's formant
/// synthesis sounds robotic (README, "Speech"). Each utterance reseeds `rand()` (Flite's
/// excitation noise), so the same text gives the same samples in any order, in any process.
///
/// The voice library is opened with `dlopen` the first time it speaks (like espeak-ng: most
/// runs never speak). Calls are serialised by `SpeechEngineLock` (Flite keeps global state,
/// and draws from the C library's `rand()` as espeak-ng does).
///
/// Thread: control thread only (blocking, allocates).
///
/// ```swift
/// let slt = try FliteSynthesizer(voice: "slt")
/// let buffer = try slt.synthesize("Rest stop in five miles")   // mono, 16 kHz
/// ```
public final class FliteSynthesizer: SpeechSource, @unchecked Sendable {
    /// The clustergen voices Debian ships (`libflite_cmu_us_NAME.so.1`).
    public static let voices = ["slt", "awb", "rms"]
    /// The voice used when none is named: `slt`, a US English female voice.
    public static let defaultVoice = "slt"

    /// The voice it speaks with, one of `voices`.
    public let voice: String
    private let library: Library
    nonisolated(unsafe) private static var libraries: [String: Library] = [:]

    /// A voice's library and its functions. The corresponding C functions are `dlopen`,
    /// `dlsym`, `flite_init` and `register_cmu_us_NAME`.
    private struct Library: @unchecked Sendable {
        let voice: UnsafeMutablePointer<cst_voice>
        let textToWave: @convention(c) (UnsafePointer<CChar>?, UnsafeMutablePointer<cst_voice>?) -> UnsafeMutablePointer<cst_wave>?
        let deleteWave: @convention(c) (UnsafeMutablePointer<cst_wave>?) -> Void

        init(_ name: String) throws(SystemError) {
            let soname = "libflite_cmu_us_\(name).so.1"
            guard let handle = dlopen(soname, RTLD_NOW | RTLD_LOCAL) else {
                throw SystemError(operation: "dlopen \(soname)", code: 0, reason: dlerror().map { String(cString: $0) } ?? "unknown error")
            }
            func symbol<F>(_ symbol: String) throws(SystemError) -> F {
                guard let address = dlsym(handle, symbol) else {
                    throw SystemError(operation: "dlsym \(symbol)", code: 0, reason: dlerror().map { String(cString: $0) } ?? "unknown error")
                }
                return unsafeBitCast(address, to: F.self)
            }
            let initialize: @convention(c) () -> Int32 = try symbol("flite_init")
            let register: @convention(c) (UnsafePointer<CChar>?) -> UnsafeMutablePointer<cst_voice>? = try symbol("register_cmu_us_\(name)")
            textToWave = try symbol("flite_text_to_wave")
            deleteWave = try symbol("delete_wave")
            _ = initialize()
            guard let voice = register(nil) else {
                throw SystemError(operation: "register_cmu_us_\(name)", code: 0, reason: "the voice did not load")
            }
            self.voice = voice
        }
    }

    /// Opens the voice (`slt`, `awb` or `rms`) the first time it is asked for.
    public init(voice: String = FliteSynthesizer.defaultVoice) throws(SystemError) {
        guard Self.voices.contains(voice) else {
            throw SystemError(operation: "flite voice \(voice)", code: 0,
                              reason: "no such Flite voice (there are \(Self.voices.joined(separator: ", ")))")
        }
        self.voice = voice
        library = try SpeechEngineLock.shared.withLock { _ throws(SystemError) -> Library in
            if let known = Self.libraries[voice] { return known }
            let opened = try Library(voice)
            Self.libraries[voice] = opened
            return opened
        }
    }

    /// Speaks `text` and returns mono samples at the voice's rate (16 kHz). The
    /// corresponding C functions are `srand`, `flite_text_to_wave` and `delete_wave`.
    public func synthesize(_ text: String) throws(SystemError) -> AudioBuffer {
        try SpeechEngineLock.shared.withLock { _ throws(SystemError) -> AudioBuffer in
            // The clustergen voices' mixed excitation draws noise from the C library's
            // `rand()`: reseeded, the same text gives the same samples whatever was said before.
            srand(1)
            guard let wave = text.withCString({ library.textToWave($0, library.voice) }) else {
                throw SystemError(operation: "flite_text_to_wave", code: 0, reason: "no audio for \"\(text)\"")
            }
            defer { library.deleteWave(wave) }
            let count = Int(wave.pointee.num_samples) * Int(max(1, wave.pointee.num_channels))
            let samples = UnsafeBufferPointer(start: wave.pointee.samples, count: wave.pointee.samples == nil ? 0 : count)
                .map { Float($0) / 32768 }
            return AudioBuffer(samples: samples, channelCount: Int(max(1, wave.pointee.num_channels)),
                               sampleRate: Double(wave.pointee.sample_rate))
        }
    }

    /// `SpeechSource`: speech resampled (soxr) to `sampleRate`.
    public func speak(_ text: String, sampleRate: Double) throws -> [Float] {
        let native = try synthesize(text)
        guard native.frameCount > 0 else { throw SystemError(operation: "flite_text_to_wave", code: 0, reason: "no audio for \"\(text)\"") }
        return try Resampler.resample(native, to: sampleRate).samples
    }
}

/// Which engine speaks a voice name: `flite:NAME` and the English defaults (no voice, `en`,
/// `en-us`, or a Flite voice's name) go to Flite's `slt` (clustergen, natural), `espeak:NAME`
/// and every other language or accent to espeak-ng, which speaks ~100 of them. When Flite's
/// library is missing, English falls back to espeak-ng's default voice.
///
/// Thread: control thread only.
public enum SpeechVoices {
    /// The voice used when a document names none (and for the library's prompts).
    public static let defaultVoice = "flite:slt"

    /// A synthesizer for `voice` (nil: the default).
    public static func synthesizer(for voice: String?) throws(SystemError) -> any SpeechSource & Sendable {
        let name = voice ?? defaultVoice
        if name.hasPrefix("espeak:") { return try SpeechSynthesizer(voice: String(name.dropFirst(7))) }
        let flite: String? = if name.hasPrefix("flite:") { String(name.dropFirst(6)) }
            else if ["en", "en-us"].contains(name.lowercased()) { FliteSynthesizer.defaultVoice }
            else if FliteSynthesizer.voices.contains(name) { name } else { nil }
        guard let flite else { return try SpeechSynthesizer(voice: name) }
        do { return try FliteSynthesizer(voice: flite) } catch {
            // An unknown `flite:` name is the user's mistake; a missing library is not.
            if name.hasPrefix("flite:"), !FliteSynthesizer.voices.contains(flite) { throw error }
            return try SpeechSynthesizer()
        }
    }
}
