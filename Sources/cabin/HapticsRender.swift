import ArgumentParser
import CabinAudio
import CabinConfig
import CabinHaptics
import CabinIO
import CabinPlayback

extension HapticsCommand {
    /// `cabin haptics render FILE -o OUT.wav`: haptics as audio.
    struct RenderAudio: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "render",
            abstract: "Render a pattern as audio (to listen to, or for voice-coil actuators).",
            discussion: """
                The continuous track becomes a phase-continuous sine whose pitch follows sharpness (log map onto --freq-range) and whose level follows intensity; transients become 20 ms decaying bursts; the peak is at most -1 dBFS. --channels 4 puts the haptics on channels 3 and 4, as DualSense controllers take them over USB. A pattern's own sound (AHAP AudioCustom events, whose EventWaveformPath is a file relative to the pattern, and AudioContinuous tones) is mixed in: on channels 1 and 2 with --channels 4, added to the preview in mono (then 1 and 2 are silent only when the pattern has no sound).

                Examples:
                  cabin haptics render Boing.ahap -o boing.wav
                  cabin haptics render Boing.ahap -o ds.wav --channels 4 --freq-range 80-250
                """)

        @Argument(help: "A haptic pattern (.ahap, .haptic).")
        var file: String

        @Option(name: .shortAndLong, help: "Output file (.wav, .flac, .aiff: 24-bit; .opus, .ogg, .mp3).")
        var output: String

        @OptionGroup var audio: HapticAudioArguments

        @Flag(help: "Treat every warning as an error.")
        var strict = false

        @OptionGroup var reading: HapticsReadingArguments

        @Option(help: "Haptic strength: off, light (intensity × 0.4), medium (× 0.7) or strong (× 1, as designed). Default: CABIN_HAPTIC_STRENGTH, else the config file's haptics.strength, else strong.")
        var strength: HapticStrength?

        @OptionGroup var view: HapticsDeviceViewArguments

        func run() throws {
            // The settings first: a problem in the config file stops the command before any output exists.
            let strength = try CLIConfig.hapticsSettings(strength: strength).hapticStrength
            let format = try CLIOutput.format(output, encoding: .pcm24, inputs: [file])
            let destination = try CLIOutput.open(output, inputs: [file])
            let (pattern, compiled) = try CLIHaptics.load(file, strict: strict, reading, strength: strength.value)
            let options = audio.options
            if let device = view.parsed {
                try renderView(HapticDeviceView(compiled, as: device), range: audio.range(for: device), options: options,
                               to: destination, strength: strength)
            } else if HapticPatternAudio.hasAudio(pattern) {
                try renderWithSound(pattern, compiled, options: options, to: destination, strength: strength)
            } else {
                let frames = try renderStreamed(compiled, options: options, to: destination, format: format)
                let channels = options.layout.channelCount, range = options.frequencyRange
                CLIOutput.summary("\(output): \(CLIOutput.clock(Double(frames) / options.sampleRate)) at \(audio.sampleRate) Hz, \(channels == 1 ? "mono" : "4 channels (haptics on 3-4)"), \(format.description(frames: Int64(frames), channels: channels)), sharpness -> \(HapticPreviewText.seconds(range.lowerBound))-\(HapticPreviewText.seconds(range.upperBound)) Hz\(CLIHaptics.strengthNote(strength))", output: output)
            }
        }
    }
}

extension HapticsCommand.RenderAudio {
    /// A pattern with sound, rendered whole (its waveforms are in memory anyway), the sound
    /// mixed in by `HapticPatternAudio.mix`.
    func renderWithSound(_ pattern: HapticPattern, _ compiled: CompiledHaptics, options: HapticAudioOptions,
                         to destination: OutputFile, strength: Setting<HapticStrength>) throws {
        let buffer = try CLIHaptics.previewWithPatternAudio(pattern, compiled, file: file, options: options)
        do {
            try SoundFile.write(buffer, to: destination, format: .forPath(output, encoding: .pcm24))
        } catch {
            CLIOutput.error(error)
            throw ExitCode.failure
        }
        CLIOutput.summary("\(output): \(CLIOutput.clock(buffer.duration)) at \(audio.sampleRate) Hz, \(buffer.channelCount == 1 ? "mono (haptics and sound)" : "4 channels (sound on 1-2, haptics on 3-4)"), sharpness -> \(HapticPreviewText.seconds(options.frequencyRange.lowerBound))-\(HapticPreviewText.seconds(options.frequencyRange.upperBound)) Hz\(CLIHaptics.strengthNote(strength))", output: output)
    }

    /// Haptics only, streamed in blocks in two passes (the peak, then the samples at the one
    /// gain that keeps it under the ceiling): memory stays one block whatever the length.
    /// The frames written.
    func renderStreamed(_ compiled: CompiledHaptics, options: HapticAudioOptions, to destination: OutputFile,
                        format: SoundFileFormat) throws -> Int {
        let gain = HapticAudioRenderer.gain(peak: HapticAudioRenderer.peak(compiled, options: options), options: options)
        var stream = HapticAudioRenderer.Stream(compiled, options: options)
        let channels = options.layout.channelCount
        do {
            let writer = try SoundFileWriter(output: destination, format: format, channelCount: channels,
                                             sampleRate: options.sampleRate, expectedFrames: Int64(stream.frameCount))
            var mono = [Float](repeating: 0, count: HapticAudioRenderer.Stream.blockFrames)
            var frames = [Float](repeating: 0, count: HapticAudioRenderer.Stream.blockFrames * channels)
            while !stream.isFinished {
                let n = mono.withUnsafeMutableBufferPointer { stream.process(into: $0) }
                frames.withUnsafeMutableBufferPointer { out in
                    for i in 0..<n {
                        let sample = gain == 1 ? mono[i] : Float(Double(mono[i]) * gain)
                        options.layout.spread(sample, into: out.baseAddress! + channels * i)
                    }
                }
                try frames.withUnsafeBufferPointer { (p) throws(SoundFileError) in
                    try writer.write(UnsafeBufferPointer(rebasing: p[0..<(n * channels)]))
                }
            }
            try writer.close()
            try destination.commit()
        } catch let error as SoundFileError {
            CLIOutput.error(error)
            throw ExitCode.failure
        } catch let error as OutputError {
            CLIOutput.error(error)
            throw ExitCode.failure
        }
        return stream.frameCount
    }
}

extension HapticsCommand.RenderAudio {
    /// `--as DEVICE`: what the device plays, as sound (`HapticDeviceView.audio`; the
    /// pattern's own sound is not the device's and is left out), on 3–4 with 4 channels.
    func renderView(_ deviceView: HapticDeviceView, range: ClosedRange<Double>, options: HapticAudioOptions,
                    to destination: OutputFile, strength: Setting<HapticStrength>) throws {
        let mono = deviceView.audio(sampleRate: options.sampleRate, frequencyRange: range)
        let channels = options.layout.channelCount
        var samples = [Float](repeating: 0, count: mono.count * channels)
        samples.withUnsafeMutableBufferPointer { out in
            for (i, sample) in mono.enumerated() { options.layout.spread(sample, into: out.baseAddress! + channels * i) }
        }
        let buffer = AudioBuffer(samples: samples, channelCount: channels, sampleRate: options.sampleRate)
        do {
            try SoundFile.write(buffer, to: destination, format: .forPath(output, encoding: .pcm24))
        } catch {
            CLIOutput.error(error)
            throw ExitCode.failure
        }
        let hz = range.lowerBound == range.upperBound ? "\(HapticPreviewText.seconds(range.lowerBound)) Hz"
            : "\(HapticPreviewText.seconds(range.lowerBound))-\(HapticPreviewText.seconds(range.upperBound)) Hz"
        CLIOutput.summary("\(output): \(CLIOutput.clock(buffer.duration)) at \(audio.sampleRate) Hz, \(channels == 1 ? "mono" : "4 channels (haptics on 3-4)"), as \(deviceView.device.name) (\(deviceView.tracks.map(\.name).joined(separator: ", ")) at \(hz))\(CLIHaptics.strengthNote(strength))", output: output)
    }
}

/// The options that shape haptics rendered as audio (`render`, `play --audio`).
struct HapticAudioArguments: ParsableArguments {
    @Option(help: "1 (mono) or 4 (DualSense: haptics on channels 3-4).")
    var channels: Int = 1

    @Option(name: .customLong("freq-range"), help: ArgumentHelp(
        "Sharpness 0…1 maps onto LOW-HIGH Hz (log); one number is one frequency. Default 60-300; with --as, per device kind: rumble 40-150 (the strong motor at LOW, the weak at HIGH), android and android-composition 170.",
        valueName: "low-high"))
    var frequencyRange: String?

    @Option(help: "Sample rate in Hz.")
    var sampleRate: Int = 48000

    func validate() throws {
        guard channels == 1 || channels == 4 else { throw ValidationError("--channels must be 1 or 4, not \(channels)") }
        guard (8000...384_000).contains(sampleRate) else { throw ValidationError("--sample-rate must be between 8000 and 384000 Hz") }
        guard let range = parsedRange else {
            throw ValidationError("--freq-range must be LOW-HIGH in Hz with 0 < LOW < HIGH < sample rate / 2, like 60-300; not '\(frequencyRange ?? "")'".terminalSafe)
        }
        _ = range
    }

    /// The range given (`LOW-HIGH`, or one frequency `F` as `F...F`), nil when none was or it
    /// is not one; `60...300` when none was given.
    var parsedRange: ClosedRange<Double>? {
        guard let frequencyRange else { return 60...300 }
        let parts = frequencyRange.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 1 || parts.count == 2, let low = Double(parts[0]), let high = Double(parts[parts.count - 1]),
              low.isFinite, high.isFinite, low > 0, parts.count == 1 || low < high, high < Double(sampleRate) / 2 else { return nil }
        return low...high
    }

    var options: HapticAudioOptions {
        HapticAudioOptions(sampleRate: Double(sampleRate), frequencyRange: parsedRange ?? 60...300,
                           layout: channels == 4 ? .dualSense : .mono)
    }

    /// The range for `device`'s view: the one given, else the device kind's own.
    func range(for device: HapticDeviceView.Device) -> ClosedRange<Double> {
        frequencyRange == nil ? device.defaultFrequencyRange : parsedRange ?? device.defaultFrequencyRange
    }
}
