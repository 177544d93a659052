import ArgumentParser
import CabinAudio
import CabinIO
import CabinPlayback

/// `cabin info FILE...`: what a sound file is and how loud.
struct Info: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Show format, channels, rate, length and loudness (EBU R128) of sound files.",
        discussion: """
            Reads WAV, FLAC, Ogg Vorbis and Ogg Opus (anything libsndfile reads). Loudness is integrated LUFS, true peak in dBTP (4x oversampled) and loudness range in LU, measured with libebur128. A file that cannot be read gives one line on stderr; the others are still shown, and the exit status is 1.

            Examples:
              cabin info Sounds/ambient/rain.opus
              cabin info --json a.wav b.flac | jq '.[].loudness.integrated'
            """)

    @Argument(help: "Sound files to inspect.")
    var files: [String]

    @Flag(help: "Print a JSON array, one object per readable file.")
    var json = false

    struct Report: Encodable {
        var file: String
        var format: String
        var container: String
        var encoding: String
        var channels: Int
        var sampleRate: Double
        var frames: Int64
        var duration: Double
        /// What the header claims when decoding found a different length (a forged or
        /// damaged header); absent otherwise.
        var declaredFrames: Int64?
        var loudness: Loudness
    }

    func run() throws {
        var reports: [Report] = []
        var failed = false
        for file in files {
            do {
                let (info, buffer) = try SoundFile.load(file)
                let loudness = try LoudnessMeter.measure(buffer)
                // The length is what decodes, not what the header says (an MP3's is an
                // estimate, and a forged one can claim years).
                let frames = Int64(buffer.frameCount)
                let off = abs(info.frameCount - frames) > max(2 * 1152, frames / 100)
                let report = Report(file: file, format: info.containerDescription, container: info.container,
                                    encoding: info.encoding, channels: info.channelCount,
                                    sampleRate: info.sampleRate, frames: frames,
                                    duration: info.sampleRate > 0 ? Double(frames) / info.sampleRate : 0,
                                    declaredFrames: off ? info.frameCount : nil, loudness: loudness)
                if !json { printHuman(report, first: reports.isEmpty) }
                reports.append(report)
            } catch {
                failed = true
                CLIOutput.error(error)
            }
        }
        if json { try CLIOutput.json(reports) }
        if failed { throw ExitCode.failure }
    }

    private func printHuman(_ r: Report, first: Bool) {
        if !first { print() }
        print(r.file)
        print("  format       \(r.format) (\(r.container)/\(r.encoding))")
        print("  channels     \(r.channels)")
        print("  sample rate  \(Int(r.sampleRate)) Hz")
        print("  frames       \(r.frames)" + (r.declaredFrames.map { " (the header claims \($0): damaged or forged)" } ?? ""))
        print("  duration     \(CLIOutput.clock(r.duration)) (\(String(cFormat: "%.3f", r.duration)) s)")
        print("  loudness     \(CLIOutput.decibels(r.loudness.integrated, "LUFS")) integrated")
        print("  true peak    \(CLIOutput.decibels(r.loudness.truePeak, "dBTP"))")
        print("  range        \(CLIOutput.decibels(r.loudness.range, "LU"))")
    }
}
