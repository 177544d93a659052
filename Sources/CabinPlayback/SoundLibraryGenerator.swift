import CabinAudio
import CabinIO
import CabinSession
import CabinSoundDesign
import Dispatch
import FoundationEssentials
import Glibc
import Synchronization

/// Writes the built-in library: renders each recipe, encodes it (Ogg Opus, or FLAC when
/// Opus would disturb a loop's seam), measures the decoded file with libebur128 and
/// records file, loop, loudness, true peak and trim in `manifest.json`.
///
/// Thread: control thread only (file I/O).
///
/// ```swift
/// let generator = SoundLibraryGenerator(folder: URL(fileURLWithPath: "Sounds"))
/// let reports = try generator.generate(only: ["engine/v8"]) { print($0.line) }
/// ```
public struct SoundLibraryGenerator {
    /// The library's folder: the sounds are written under it by name (`engine/v8.opus`), and
    /// its `manifest.json`.
    public var folder: URL
    /// The integrated loudness every sound is trimmed to, in LUFS (−23 by default); a
    /// recipe's `level` is added to it.
    public var referenceLoudness = -23.0
    /// Highest true peak an asset may have after encoding; louder assets are turned down
    /// and encoded again.
    public var truePeakCeiling = -1.5
    /// The highest true peak a UI one-shot may have at its trim (dBTP): a click or a tick
    /// carries little loudness over 400 ms but a peak 20 dB over it, so trimmed to the
    /// reference loudness it would drive the limiter (the quest's toggles reached +4 dBTP in
    /// the mix); such a sound is trimmed by its peak instead, to this. Chimes and voices are
    /// trimmed by loudness as before (their peaks stay under this at the reference).
    public var transientPeakCeiling = -12.0
    /// Opus bitrates for mono and stereo assets (bits per second).
    public var opusBitrate = (mono: 64000, stereo: 96000)

    /// A generator writing into `folder`, every other setting at its default.
    public init(folder: URL) { self.folder = folder }

    /// What one asset came to.
    public struct Report: Sendable {
        /// The asset's manifest entry: file, loop points, loudness, true peak, trim.
        public var entry: SoundManifest.Entry
        /// The format it was stored in (Opus at the mono or stereo bitrate, or 16-bit FLAC).
        public var format: SoundFileFormat
        /// The file's size, in bytes.
        public var bytes: Int
        /// Wall-clock seconds the recipe took to render.
        public var renderSeconds: Double
        /// Wall-clock seconds encoding, decoding and measuring took (every attempt).
        public var encodeSeconds: Double
        /// How the loop's seam measures in the decoded file (nil: not a loop).
        public var seam: LoopSeam?
        /// Why a recipe that prefers Opus was stored as FLAC.
        public var note: String?

        /// The report as one line for a terminal: name, format, size, length, loudness, peak,
        /// timings, seam and note.
        public var line: String {
            let loud = entry.loudness.map { String(cFormat: "%6.1f LUFS", $0) } ?? "  -inf LUFS"
            let peak = entry.truePeak.map { String(cFormat: "%5.1f dBTP", $0) } ?? ""
            let name = entry.name.padded(toLength: max(26, entry.name.count))
            return name + " " + format.shortName.padded(toLength: 5)
                + String(cFormat: "%8.1f kB %6.2f s  ", Double(bytes) / 1000, entry.duration ?? 0) + loud + " " + peak
                + String(cFormat: "  render %.2f s, encode %.2f s", renderSeconds, encodeSeconds)
                + (seam.map { String(cFormat: "  seam %.4f (body max %.4f)", $0.seamStep, $0.bodyMaxStep) } ?? "")
                + (note.map { "  (\($0))" } ?? "")
        }
    }

    /// Generates `only` (library names) or every recipe, and writes the manifest (other
    /// entries of an existing manifest are kept when generating only some).
    public func generate(only: [String]? = nil, speech: (any SpeechSource)? = nil,
                         progress: (Report) -> Void = { _ in }) throws -> [Report] {
        let recipes: [SoundRecipe]
        if let only {
            recipes = try only.map { name in
                guard let r = SoundRecipes.named(name) else {
                    throw SoundDesignError("\(name): no such sound (no recipe has this name)")
                }
                return r
            }
        } else {
            recipes = SoundRecipes.all
        }
        var manifest = SoundManifest(referenceLoudness: referenceLoudness)
        if only != nil, let existing = try? SoundLibrary(root: folder) { manifest = existing.manifest }
        manifest.referenceLoudness = referenceLoudness
        var voice = speech
        // The prompts are spoken by the default voice, Flite's slt (deterministic: no need to
        // speak them in a fixed order first, as espeak-ng's would have needed).
        if voice == nil, recipes.contains(where: \.needsSpeech) { voice = try FliteSynthesizer() }
        let reports = try generateConcurrently(recipes, speech: voice, progress: progress)
        for report in reports { manifest.upsert(report.entry) }
        if only == nil { manifest.sounds = reports.map(\.entry) }
        let output = try OutputFile(folder.appendingPathComponent("manifest.json").path)
        try output.write(manifest.serialized())
        try output.commit()
        return reports
    }

    /// Every recipe on its own thread pool slot (one per core); results in recipe order.
    /// Speech is serialised inside `SpeechSynthesizer`; every other step is independent.
    private func generateConcurrently(_ recipes: [SoundRecipe], speech: (any SpeechSource)?,
                                      progress: (Report) -> Void) throws -> [Report] {
        let results = Mutex([Result<Report, any Error>?](repeating: nil, count: recipes.count))
        let shared = UncheckedBox((self, speech))
        DispatchQueue.concurrentPerform(iterations: recipes.count) { i in
            let (generator, speech) = shared.value
            let result = Result { try generator.generate(recipes[i], speech: speech) }
            results.withLock { $0[i] = result }
        }
        var reports: [Report] = []
        for result in results.withLock({ $0 }) {
            let report = try result!.get()
            progress(report)
            reports.append(report)
        }
        return reports
    }

    /// Renders, encodes and measures one recipe (writes its file, not the manifest).
    public func generate(_ recipe: SoundRecipe, speech: (any SpeechSource)? = nil) throws -> Report {
        let clock = ContinuousClock()
        let started = clock.now
        var buffer = try recipe.make(sampleRate: SoundRecipes.sampleRate, speech: speech)
        let rendered = clock.now
        try FileManager.default.createDirectory(at: folder.appendingPathComponent(recipe.name).deletingLastPathComponent(),
                                                withIntermediateDirectories: true)
        var format: SoundFileFormat = recipe.storage == .opus
            ? .opus(bitrate: buffer.channelCount == 1 ? opusBitrate.mono : opusBitrate.stereo) : .flac(.pcm16)
        var note: String?
        var attempt = 0
        while true {
            attempt += 1
            let path = folder.appendingPathComponent("\(recipe.name).\(format.fileExtension)").path
            // A lossy codec starts from silence and ends on padding: an Opus loop is stored
            // with the loop's tail before it and its head after it, and the loop points
            // select a stretch the codec encoded in mid-stream, spliced where its two
            // codings of the loop's head agree best.
            let roll = recipe.isLoop && format.isLossy ? Self.lossyLoopRoll : 0
            try SoundFile.write(Self.wrapped(buffer, roll: roll), to: path, format: format)
            if format.isLossy { try OggSerialNumber.rewrite(path, serial: OggSerialNumber.serial(for: recipe.name)) }
            let decoded = try SoundFile.read(path)
            var loop = recipe.isLoop ? (start: roll, end: decoded.frameCount - roll) : nil
            if let l = loop, roll > 0 {
                let d = LoopSeam.bestSplice(decoded, start: l.start, end: l.end, search: roll - 960)
                loop = (l.start + d, l.end + d)
            }
            let seam = loop.map { LoopSeam.measure(decoded, loopStart: $0.start, loopEnd: $0.end) }
            if let seam, !seam.isInconspicuous || loop!.end - loop!.start != buffer.frameCount, format.isLossy {
                note = "Opus seam stands out (\(seam)): stored as FLAC"
                try? FileManager.default.removeItem(atPath: path)
                format = .flac(.pcm16)
                continue
            }
            let loudness = try LoudnessMeter.measure(decoded)
            if let peak = loudness.truePeak, peak > truePeakCeiling, attempt < 4 {
                let gain = Float(pow(10, (truePeakCeiling - 0.3 - peak) / 20))
                buffer.samples = buffer.samples.map { $0 * gain }
                continue
            }
            for other in ["opus", "flac"] where other != format.fileExtension {
                try? FileManager.default.removeItem(at: folder.appendingPathComponent("\(recipe.name).\(other)"))
            }
            // `FileStatus`, not FoundationEssentials' attributes: they give the size as a type `as? Int` misses (it read 0.0 kB).
            let bytes = (try? FileStatus(path: path))?.size ?? 0
            let entry = SoundManifest.Entry(
                name: recipe.name, file: "\(recipe.name).\(format.fileExtension)", category: recipe.category.rawValue,
                loopStart: loop?.start, loopEnd: loop?.end,
                loudness: loudness.integrated, truePeak: loudness.truePeak,
                trim: trim(recipe, loudness),
                duration: decoded.duration, description: recipe.description)
            let done = clock.now
            return Report(entry: entry, format: format, bytes: bytes, renderSeconds: (rendered - started).inSeconds,
                          encodeSeconds: (done - rendered).inSeconds, seam: seam, note: note)
        }
    }
}

extension SoundLibraryGenerator {
    /// The trim that brings a sound to the reference loudness (plus its recipe's level); for
    /// a UI one-shot, no more than brings its true peak to `transientPeakCeiling`.
    func trim(_ recipe: SoundRecipe, _ loudness: Loudness) -> Double {
        guard let integrated = loudness.integrated else { return 0 }
        let byLoudness = referenceLoudness + recipe.level - integrated
        guard recipe.category == .ui, !recipe.isLoop, let peak = loudness.truePeak else { return byLoudness }
        return min(byLoudness, transientPeakCeiling - peak)
    }
}

/// A value handed to worker threads that only read it (the speech source serialises itself).
private struct UncheckedBox<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}

extension SoundLibraryGenerator {
    /// Frames of pre- and post-roll around a lossy loop (0.5 s: 25 Opus frames, enough for the
    /// encoder's state at the loop's end to match its state at the start).
    static let lossyLoopRoll = 24000

    /// `buffer` with its last `roll` frames before it and its first `roll` frames after it.
    static func wrapped(_ buffer: AudioBuffer, roll: Int) -> AudioBuffer {
        guard roll > 0 else { return buffer }
        let ch = buffer.channelCount, s = buffer.samples
        let head = s[0..<(roll * ch)], tail = s[(s.count - roll * ch)...]
        return AudioBuffer(samples: Array(tail) + s + Array(head), channelCount: ch, sampleRate: buffer.sampleRate)
    }
}

extension SoundFileFormat {
    /// The usual extension of the format (without the dot).
    public var fileExtension: String {
        switch self {
        case .opus: "opus"
        case .flac: "flac"
        case .wav: "wav"
        case .aiff: "aiff"
        case .vorbis: "ogg"
        case .mp3: "mp3"
        }
    }

    var shortName: String { fileExtension.uppercased() }
}

