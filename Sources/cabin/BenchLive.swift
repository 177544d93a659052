import CabinIO
import CabinPlayback
import FoundationEssentials

extension Bench {
    /// `--live`: what playing costs the machine, as a listener's `cabin play` runs — the
    /// whole process (every thread: render, control loop, radio, decoders), its wake-ups a
    /// second and its render thread's share — for the ambient preset and the drive at each
    /// latency, on each backend, beside mpv looping one library bed on the same device in the
    /// same run.
    func measureLivePower() throws {
        let executable = URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL.path
        let settle = max(0, self.settle), seconds = max(1, self.seconds)
        var devices = [try liveDevice()]
        if !devices.contains(where: { $0.hasPrefix("pipewire") || $0 == "none" }) {
            if PipeWireSinks.daemonAnswers() { devices.append("pipewire") } else { print("(no PipeWire daemon answers: PipeWire not measured)") }
        }
        let bed = CLIPaths.packageFile("Sounds/ambient/rain.opus")
        let mpv = ChildProcess.executable(named: "mpv")
        print("live, the whole process: \(Int(seconds)) s of steady state after \(Int(settle)) s; CPU as a share of one core "
              + "(each thread's run time), wake-ups as voluntary context switches a second, summed over the threads:")
        for device in devices {
            print("  on \(device):")
            var figures: [String: ProcessFigures] = [:]
            for preset in ["ambient", "drive"] {
                for latency in ["low", "relaxed"] {
                    let line = [executable, "play", "--preset", preset, "-D", device, "--latency", latency, "--no-state", "--no-config"]
                    guard let f = try run(line, settle: settle, seconds: seconds) else {
                        print("    \(preset) \(latency): cabin play ended before the measurement (try it: \(line.map(ChildProcess.shellQuoted).joined(separator: " ")))")
                        continue
                    }
                    figures[preset + " " + latency] = f
                    let render = f.cpuPercent { $0 == "cabin-audio" || $0 == "cabin-pw-data" }
                    print("    " + padded(preset, 8) + padded(latency, 8)
                          + String(cFormat: " CPU %6.3f %%  wake-ups %6.1f/s  render thread %6.3f %%  RSS %5.1f MB",
                                   f.cpuPercent, f.wakeupsPerSecond, render, f.residentMegabytes))
                }
            }
            guard let mpv else { print("    mpv: not installed (apt install mpv): no reference"); continue }
            let line = [mpv, "--no-video", "--no-terminal", "--no-config", "--loop-file=inf"] + mpvOutput(device) + [bed]
            guard let reference = try run(line, settle: settle, seconds: seconds) else {
                print("    mpv ended before the measurement (try it: \(line.map(ChildProcess.shellQuoted).joined(separator: " ")))")
                continue
            }
            print("    " + padded("mpv, rain.opus looped", 16)
                  + String(cFormat: " CPU %6.3f %%  wake-ups %6.1f/s                          RSS %5.1f MB",
                           reference.cpuPercent, reference.wakeupsPerSecond, reference.residentMegabytes))
            for (key, goal) in [("ambient relaxed", 0.3), ("drive relaxed", 1.0)] {
                guard let f = figures[key] else { continue }
                let ratio = f.cpuPercent / max(reference.cpuPercent, 1e-9)
                func met(_ ok: Bool) -> String { ok ? "met" : "not met" }
                var line = "    \(key): " + String(cFormat: "%.2f", ratio) + "× mpv's CPU (goal ≤ " + String(cFormat: "%.1f", goal)
                    + "×: \(met(ratio <= goal)))"
                if key == "ambient relaxed" {
                    line += "; " + String(cFormat: "%.3f", f.cpuPercent) + " % of one core (goal ≤ 0.5 %: \(met(f.cpuPercent <= 0.5))), "
                        + String(cFormat: "%.1f", f.wakeupsPerSecond) + " wake-ups/s (goal ≤ 25: \(met(f.wakeupsPerSecond <= 25)))"
                }
                print(line)
            }
        }
    }

    /// The device as `cabin play` would choose it, named with its scheme so that a bare
    /// `default` is ALSA's (a machine with PipeWire measures that as `pipewire`).
    private func liveDevice() throws -> String {
        let device = try self.device
        return device.contains(":") || device == "none" || device == "pipewire" ? device : "alsa:" + device
    }

    /// mpv's options for the same device.
    private func mpvOutput(_ device: String) -> [String] {
        if device == "none" { return ["--ao=null"] }
        if device.hasPrefix("pipewire") {
            let target = device.dropFirst("pipewire".count).drop { $0 == ":" }
            return ["--ao=pipewire"] + (target.isEmpty ? [] : ["--audio-device=pipewire/" + target])
        }
        let name = device.hasPrefix("alsa:") ? String(device.dropFirst(5)) : device
        return ["--ao=alsa", "--audio-device=alsa/" + name]
    }

    /// Starts `arguments` (output to /dev/null), measures it, then ends it as Ctrl-C would.
    private func run(_ arguments: [String], settle: Double, seconds: Double) throws -> ProcessFigures? {
        let child = try ChildProcess(shell: "exec " + arguments.map(ChildProcess.shellQuoted).joined(separator: " ")
                                     + " </dev/null >/dev/null 2>&1")
        let figures = ProcessUsage.measure(pid: child.pid, settle: settle, seconds: seconds)
        child.interrupt()
        _ = child.exitStatus(waiting: true)
        return figures
    }
}
