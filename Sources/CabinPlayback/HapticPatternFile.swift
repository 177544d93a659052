import CabinAudio
import CabinHaptics
import CabinIO
import CabinJSON

/// A haptic pattern file read, linted and compiled, and its preview sound made: what every
/// command that shows or plays a pattern does first (`haptics show`/`play`/`render`/`watch`,
/// `cabin studio`). Diagnostics are returned as values; printing them is the caller's.
///
/// ```swift
/// let read = HapticPatternFile.read("Boing.ahap", options: HapticReadOptions(), strength: .strong)
/// if let pattern = read.pattern, let compiled = read.compiled {
///     let audio = HapticPatternFile.previewAudio(pattern, compiled, file: "Boing.ahap", options: HapticAudioOptions())
/// }
/// ```
///
/// Thread: control thread (file I/O).
public enum HapticPatternFile {
    /// One read of a pattern file.
    public struct Read: Sendable {
        /// The file's bytes, when it could be read.
        public var bytes: [UInt8]?
        /// The pattern and its compilation, when the file has no errors.
        public var pattern: HapticPattern?
        /// The pattern compiled at the strength asked for (nil exactly when `pattern` is).
        public var compiled: CompiledHaptics?
        /// The reader's and the lints' diagnostics.
        public var diagnostics: Diagnostics
        /// Why the file could not be read at all (one line, as `DocumentFile` words it), or nil.
        public var failure: String?
    }

    /// Reads `path` (`DocumentFile.read`: its size limit, no FIFO hang), then reads the
    /// pattern with `options` and compiles it at `strength`.
    public static func read(_ path: String, options: HapticReadOptions, strength: HapticStrength) -> Read {
        let bytes: [UInt8]
        do { bytes = try DocumentFile.read(path, kind: "document") } catch {
            return Read(diagnostics: Diagnostics(file: path), failure: "\(error)")
        }
        let result = HapticReader.read(bytes, file: path, options: options)
        let compiled = result.pattern.map { HapticCompiler.compile($0, options: HapticCompileOptions(strength: strength)) }
        return Read(bytes: bytes, pattern: result.pattern, compiled: compiled, diagnostics: result.diagnostics)
    }

    /// The haptic preview of `compiled` as audio (`HapticAudioRenderer.synthesize`) with the
    /// pattern's own sound — its `AudioCustom` and `AudioContinuous` events — mixed in
    /// (`HapticPatternAudio.mix`: channels 1–2 of a 4-channel render, or added to a mono one),
    /// as one buffer; nil when a waveform has an error. The waveforms' diagnostics (errors,
    /// and a warning for a missing file) come with it.
    public static func previewAudio(_ pattern: HapticPattern, _ compiled: CompiledHaptics, file: String,
                                    options: HapticAudioOptions) -> (buffer: AudioBuffer?, diagnostics: Diagnostics) {
        var rendered = HapticAudioRenderer.synthesize(compiled, options: options)
        var diagnostics = Diagnostics(file: file)
        if HapticPatternAudio.hasAudio(pattern) {
            let loaded = HapticWaveformLoader.load(pattern, patternFile: file, sampleRate: options.sampleRate)
            diagnostics = loaded.diagnostics
            if loaded.diagnostics.hasErrors { return (nil, diagnostics) }
            let stereo = HapticPatternAudio.synthesize(pattern, waveforms: loaded.waveforms, sampleRate: options.sampleRate)
            rendered = HapticPatternAudio.mix(stereo, into: rendered, ceiling: options.peakCeiling)
        }
        return (AudioBuffer(samples: rendered.samples, channelCount: rendered.channelCount, sampleRate: rendered.sampleRate), diagnostics)
    }

    /// `0.27 s, 3 haptic events (1 transient), 2 curves`: what `haptics show` and `watch`
    /// print first, and the studio's caption.
    public static func summary(_ pattern: HapticPattern, _ compiled: CompiledHaptics) -> String {
        func plural(_ n: Int, _ word: String) -> String { "\(n) \(word)\(n == 1 ? "" : "s")" }
        let haptic = pattern.events.filter { $0.type.isHaptic }
        let transients = haptic.filter { $0.type == .hapticTransient }.count
        var parts = ["\(NumberText.decimals(compiled.endTime, 3)) s",
                     plural(haptic.count, "haptic event") + (transients > 0 ? " (\(transients) transient\(transients == 1 ? "" : "s"))" : "")]
        if !pattern.parameterCurves.isEmpty { parts.append(plural(pattern.parameterCurves.count, "curve")) }
        if !pattern.dynamicParameters.isEmpty { parts.append(plural(pattern.dynamicParameters.count, "parameter")) }
        return parts.joined(separator: ", ")
    }
}
