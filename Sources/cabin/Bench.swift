import ArgumentParser
import CabinBench
import CabinHaptics
import CabinIO
import CabinPlayback
import CabinSession
import FoundationEssentials

/// `cabin bench`: performance figures (benchmarks print figures; tests never time things).
struct Bench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure render speed, what live playback costs (CPU, wake-ups, beside mpv), memory and launch time.",
        discussion: """
            Offline: seconds of session rendered per CPU second at several block sizes, and the share of one core that real-time playback needs. With --live: what a listener's 'cabin play' costs the machine — the whole process's share of one core, its wake-ups a second and its render thread's share, in steady state — for the ambient preset and the drive at low and relaxed latency, on the device given (ALSA's default unless -D) and on PipeWire when its daemon answers, each beside mpv looping the rain bed on the same device in the same run (mpv skipped with a reason when it is not installed). With --sweep: plays the session in this process at each period size, with and without SCHED_FIFO, and counts underruns (on a machine with no sound card, a paced sink such as the tests' cabintest plugin); each run is followed by its floor — the same poll/write loop on the same device writing silence without mixing — so the difference is what mixing costs and the floor is the kernel's and ALSA's per-wake-up cost. With --launch: the time from starting 'cabin play' to its first audio. With --mix: the mixer against a plain loop summing the same voices with a gain ramp each and hard-clipping (the reference), on a loud mix of 8, 16, 32 and 64 looping layers with the limiter on, as a ratio of speeds, with the limiter's share of the render time. With --radio FILE: the CPU a station's thread needs to decode that stream (format detection, codec, soxr to 48 kHz). With --haptics: haptic compile speed (read and compile, best of 21 runs and the median) for a 160 KB Meta Haptics Studio export and a 10,000-event AHAP, both generated, or for the files given with --haptics-file; the JSON parse alone is printed as the floor.

            Examples:
              cabin bench Patterns/sessions/example.json
              cabin bench --mix --mix-seconds 60
              cabin bench --live
              cabin bench Patterns/sessions/example.json --sweep --seconds 60 --periods 64,128,256
              cabin bench --seconds 5 --radio station.opus --radio station.mp3 --radio station.ogg
              cabin bench --playlist ~/Music/album/
              cabin bench --haptics
              cabin bench --haptics --haptics-file export.haptic
            """)

    @Argument(help: "The session to measure (default: Patterns/sessions/example.json).")
    var session: String?

    @Option(help: "Seconds of session per measurement.")
    var seconds = 60.0

    @Flag(help: "Measure 'cabin play' live, the whole process, at each latency and beside mpv (--seconds each, after --settle).")
    var live = false

    @Option(help: "With --live: seconds each player runs before its measurement starts.")
    var settle = 12.0

    @Flag(help: "Also play the session in this process on the device at each period size (--periods).")
    var sweep = false

    @Flag(help: "Also measure launch to first audio of 'cabin play'.")
    var launch = false

    @Flag(help: "Also compare the mixer with a plain summing loop of the same voices on a loud mix (8, 16, 32, 64 voices).")
    var mix = false

    @Option(help: "Seconds of the loud mix per measurement, with --mix.")
    var mixSeconds = 600.0

    @Option(help: "Voice counts for --mix, comma-separated.")
    var mixVoices = "8,16,32,64"

    @Flag(help: "Measure haptic compile speed instead of a session.")
    var haptics = false

    @Flag(help: "Measure what following a session live costs the rumble thread (the session given, or generated ones with 1, 100 and 500 haptic cues).")
    var liveHaptics = false

    @Option(help: "With --haptics: a pattern file to measure (repeatable) instead of the generated ones.")
    var hapticsFile: [String] = []

    /// The sound device for --live, --sweep and --launch.
    @OptionGroup(title: "Sound device (--live, --sweep, --launch)") var output: DeviceArguments
    /// As `cabin play` chooses it: `-D`, else the config file's play.device or CABIN_DEVICE,
    /// else `default`.
    var device: String { get throws { try output.configured() } }

    @Option(help: "Period sizes for --sweep, comma-separated.")
    var periods = "64,128,256"

    @Option(help: "Periods per buffer for --sweep.")
    var bufferPeriods = 3

    @Flag(inversion: .prefixedNo, help: "With --sweep, also measure each run's floor (the loop writing silence).")
    var floor = true

    @Option(help: ArgumentHelp("Also measure decoding this radio stream file (Ogg Opus, Ogg Vorbis or MP3) as a station's thread does; repeatable.",
                               valueName: "file"))
    var radio: [String] = []

    @Option(help: ArgumentHelp("Also measure how soon this playlist (a folder, .m3u, .m3u8 or .pls) has its first half second ready, and a jump to its next track: untagged tracks measured in a separate pass (the reference) against measured while they decode ahead; repeatable.",
                               valueName: "path"))
    var playlist: [String] = []

    func run() throws {
        if !playlist.isEmpty && session == nil && !sweep && !mix && !launch && radio.isEmpty { return try measurePlaylists() }
        if haptics { return try benchHaptics() }
        if liveHaptics { return try benchLiveHaptics() }
        if live { return try measureLivePower() }
        let path = session ?? CLIPaths.packageFile("Patterns/sessions/example.json")
        let loaded = try CLISession.load(path, sampleRate: 48000, maxBlockFrames: 512)
        print("session: \(path) (\(CLIOutput.clock(loaded.compiled.duration).dropLast(4)), \(loaded.compiled.config.layers.count) layers)")
        print("render, offline (\(Int(min(seconds, loaded.compiled.duration))) s):")
        for block in [64, 256, 512] {
            let compiled = SessionCompiler.compile(loaded.document, sounds: loaded.sounds, sampleRate: 48000,
                                                   maxBlockFrames: block)
            let f = PlaybackBenchmark.measure(compiled, seconds: seconds, blockFrames: block)
            print(String(cFormat: "  block %4d: %6.0f× real time = %.3f %% of one core", block, f.speed, f.cpuPercentAtRealTime))
        }
        if sweep { try measureSweep(loaded.compiled) }
        if mix { measureMix() }
        if launch { try measureLaunch(path) }
        if !radio.isEmpty { try measureRadio() }
        if !playlist.isEmpty { try measurePlaylists() }
        print(String(cFormat: "peak RSS: %.1f MB", PlaybackBenchmark.peakResidentMegabytes()))
    }

    /// `--sweep`: the session live at each period, with and without SCHED_FIFO (and the
    /// floor with `--floor`), and the lowest period with no xrun.
    private func measureSweep(_ compiled: CompiledSession) throws {
        let device = try self.device  // read once: a config file's warning prints once
        print("live on \(device), \(Int(seconds)) s each:")
        var lowest: [Bool: Int] = [:]
        for period in periods.split(separator: ",").compactMap({ Int($0) }) {
            for rt in [true, false] {
                let f = try PlaybackBenchmark.play(compiled, device: device, periodFrames: period,
                                                   periods: bufferPeriods, realtime: rt, seconds: seconds)
                let head = String(cFormat: "period %4d×%d (%.1f ms)", period, bufferPeriods, Double(period) / 48)
                print("  \(head)  \(padded(f.scheduling))"
                      + String(cFormat: " xruns %3d  render thread %.3f %% of one core", f.xruns, f.renderCPUPercent))
                if floor {
                    let s = try PlaybackBenchmark.play(compiled, device: device, periodFrames: period,
                                                       periods: bufferPeriods, realtime: rt, seconds: seconds, silence: true)
                    print("  \(padded("", head.count))  \(padded("floor: same loop, silence, no mixing"))"
                          + String(cFormat: " xruns %3d  render thread %.3f %% of one core (mixing %.3f)",
                                   s.xruns, s.renderCPUPercent, f.renderCPUPercent - s.renderCPUPercent))
                }
                if f.xruns == 0 && lowest[rt].map({ period < $0 }) ?? true { lowest[rt] = period }
            }
        }
        print("  lowest period with 0 xruns: \(lowest[true].map(String.init) ?? "none") with SCHED_FIFO, \(lowest[false].map(String.init) ?? "none") without")
    }

    /// Each stream file decoded (and resampled to 48 kHz) as a station's thread does.
    private func measureRadio() throws {
        print("radio decoding (as a station's thread: format, codec, soxr to 48 kHz):")
        for file in radio {
            let bytes: [UInt8]
            do { bytes = try DocumentFile.read(file, kind: "stream file") } catch {
                CLIOutput.error("\(error)")
                throw ExitCode.failure
            }
            do {
                let f = try RadioDecodeBenchmark.measure(bytes)
                print("  \(padded(file + " (" + f.codec + ")", 44))"
                      + String(cFormat: "%6.1f s in %.3f s: %5.0f× real time = %.3f %% of one core", f.audioSeconds, f.cpuSeconds,
                               f.speed, f.cpuPercentAtRealTime))
            } catch {
                CLIOutput.error("\(file): \(error)")
                throw ExitCode.failure
            }
        }
    }

    /// Each playlist's start and jump, its untagged tracks measured in a separate pass (the
    /// reference) and while they decode ahead (`PlaylistStartBenchmark`).
    private func measurePlaylists() throws {
        print("playlist start (its first 0.5 s of audio ready) and a jump to the next track (its first 0.5 s):")
        for path in playlist {
            do {
                let (pass, ahead) = try PlaylistStartBenchmark.measure(path)
                print("  \(path)")
                print("    loudness in a separate pass first (reference): " + String(cFormat: "start %7.3f s  jump %7.3f s", pass.firstSeconds, pass.jumpSeconds))
                print("    loudness measured while decoding ahead:        " + String(cFormat: "start %7.3f s  jump %7.3f s", ahead.firstSeconds, ahead.jumpSeconds))
            } catch {
                CLIOutput.error("\(path): \(error)")
                throw ExitCode.failure
            }
        }
    }

    /// The loud mix against the plain summing loop (`PlaybackBenchmark.compareMix`).
    private func measureMix() {
        print("mix against a plain summing loop of the same voices (\(Int(mixSeconds)) s of looping float layers on 4 buses, "
              + "a voice cue every 30 s ducking two by 12 dB; blocks of 512; best of 3 in turn):")
        print("  voices   mixer (limiter on)      limiter off   plain loop   mixer/plain   limiter share")
        for voices in mixVoices.split(separator: ",").compactMap({ Int($0) }) {
            let f = PlaybackBenchmark.compareMix(voices: voices, seconds: mixSeconds)
            print(String(cFormat: "  %6d   %6.0f× (%5.1f ns/frame)   %9.0f×   %9.0f×   %10.2f×   %11.1f %%",
                         voices, f.speed, f.nanosecondsPerFrame, f.speedWithoutLimiter, f.plainSpeed, f.ratio,
                         f.limiterPercent))
        }
        // Voices alone (limiter off): the same 8 layers read at rate 1 and repitched by 1.26.
        let plain = PlaybackBenchmark.compareMix(voices: 8, seconds: mixSeconds)
        let pitched = PlaybackBenchmark.compareMix(voices: 8, seconds: mixSeconds, pitch: 1.26)
        print(String(cFormat: "  8 voices repitched ×1.26 (cubic Hermite), limiter off: %.0f× against %.0f× at rate 1 = %.2f×",
                     pitched.speedWithoutLimiter, plain.speedWithoutLimiter,
                     pitched.speedWithoutLimiter / plain.speedWithoutLimiter))
    }

    /// `--haptics`: read and compile times, with the JSON parse as the floor and the
    /// issue's targets (160 KB export ≤ 2 ms, 10,000 events ≤ 30 ms) beside the figures.
    private func benchHaptics() throws {
        var inputs: [(name: String, bytes: [UInt8], target: Double?)] = []
        if hapticsFile.isEmpty {
            let studio = HapticBenchmark.studioExport(bytes: 160_000)
            inputs.append(("studio-export.haptic", studio, 2))
            inputs.append(("10000-events.ahap", HapticBenchmark.manyEvents(10_000), 30))
        } else {
            for path in hapticsFile {
                guard let bytes = CLIInput.readDocument(path) else { throw ExitCode.failure }
                inputs.append((path, bytes, nil))
            }
        }
        print("haptics: read + compile, best of 21 runs (median in brackets)" + (hapticsFile.isEmpty ? " (inputs generated, seeded)" : ""))
        for input in inputs {
            let result = HapticBenchmark.measure(input.bytes, file: input.name)
            guard let f = result.figures else {
                for d in result.diagnostics.all where d.severity == .error { CLIOutput.error("\(d)") }
                throw ExitCode.failure
            }
            let target = input.target.map {
                String(cFormat: "  (target ≤ %.0f ms: ", $0) + (f.totalMilliseconds <= $0 ? "met)" : "not met)")
            } ?? ""
            print("  \(input.name): \(f.bytes / 1000) KB, \(f.events) events → \(f.breakpoints) breakpoints, \(f.transients) transients")
            print(String(cFormat: "    total %.3f ms [%.3f] = read %.3f ms (JSON parse alone %.3f ms) + compile %.3f ms",
                         f.totalMilliseconds, f.medianTotalMilliseconds, f.readMilliseconds, f.parseMilliseconds,
                         f.compileMilliseconds) + target)
        }
    }

    func padded(_ text: String, _ width: Int = 36) -> String {
        text + String(repeating: " ", count: max(0, width - text.count))
    }

    /// Spawns `cabin play --json` and times the first event line (`start`, sent once the
    /// device has been filled and started): for the session measured, and for `cabin play`
    /// with no session (the default drive: speech, Opus beds, the generated radio).
    private func measureLaunch(_ path: String) throws {
        let device = try self.device, executable = URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL.path
        for (label, session) in [("'cabin play \(URL(fileURLWithPath: path).lastPathComponent)'", [path]), ("'cabin play', the default drive", [])] {
            var times: [Double] = []
            for _ in 0..<5 {
                times.append(try PlaybackBenchmark.millisecondsToFirstOutput(
                    of: executable, arguments: ["play"] + session + ["--json", "-D", device]))
            }
            times.sort()
            print("launch to first audio (\(label), 5 runs): " + String(cFormat: "median %.0f ms, best %.0f ms", times[2], times[0]))
        }
    }
}

/// Files that ship with the package (presets, example sessions, patterns).
enum CLIPaths {
    /// `relative` inside the package: found above the running executable.
    static func packageFile(_ relative: String) -> String {
        ResourceLocator.find(relative)?.path ?? relative
    }
}
