import CabinAudio
import CabinIO
import CabinPlayback
import CabinSession
import FoundationEssentials

/// What `cabin play` prints: a status block redrawn in place (terminal), one line per
/// event (pipes), JSON lines (`--json`) or nothing (`--quiet`).
///
/// Everything goes to stdout through a bounded buffer written on a thread of its own
/// (`StreamWriter`), so a reader that stops reading (a `--json` pipe nobody drains, a
/// terminal stopped with Ctrl-S) never holds up the control loop, the control socket or
/// the session's end: what does not fit is dropped and counted, and `finish` waits at most
/// `drainSeconds` for the rest, then says how many events were dropped.
final class PlayView {
    enum Mode { case terminal, lines, json, quiet }
    let mode: Mode
    let title: String
    /// stdout, written without blocking this thread.
    private let output = StreamWriter()
    /// How long the end waits for stdout to take what is still queued.
    static let drainSeconds = 2.0
    /// The lengths (in characters) of the status lines on screen, to know how many rows
    /// they take at the terminal's current width (a narrowed terminal wraps them).
    private var drawnLengths: [Int] = []
    private var info: PlaybackInfo?
    /// Meter levels shown, falling back slowly (peak hold with a 15 dB/s release).
    private var meters: [(String, Double)] = []
    /// Whether the key help (`?`) shows under the status block.
    private(set) var showsKeyHelp = false

    /// The keys `cabin play` takes, as the `?` overlay lists them.
    static let keyHelp: [(keys: String, action: String)] = [
        ("space", "pull over (fade out, pause the clock) / resume"),
        ("← →", "seek 30 s back / forward"),
        ("+ − ↑ ↓", "speed up / down by 5"),
        ("9 0  / *", "volume down / up by 2 dB"),
        ("m", "mute / unmute"),
        ("n p  > <", "the radio's next / previous track or station"),
        ("l r", "leave focus (speed bump, slow down) / return to it"),
        ("?", "show / hide these keys"),
        ("q  Ctrl-C", "fade out and quit (Ctrl-C twice: at once)"),
    ]

    /// Shows or hides the key help on the next draw.
    func toggleKeyHelp() { showsKeyHelp.toggle() }

    init(mode: Mode, title: String) {
        self.mode = mode
        self.title = title
        CLIOutput.flush()   // anything printed before goes out first
    }

    /// A line of its own (not an event): above the status block.
    func note(_ line: String) {
        let clearing = clearing()
        if output.write(clearing + line + "\n", counted: false), !clearing.isEmpty { drawnLengths = [] }
    }

    func show(_ event: PlayerEvent) {
        if case .started(let i) = event { info = i }
        switch mode {
        case .quiet:
            if case .deviceError(let message) = event { CLIOutput.warning("\(message); retrying") }
            if case .ended(.failed, _, _) = event {
                CLIOutput.error("the audio device did not come back; playback stopped (check that the sound server or device is back, then play again)")
            }
            if case .radio(.error(let url, let message)) = event { CLIOutput.warning("radio \(url): \(message)") }
            if case .radio(.skipped(let url, let message)) = event { CLIOutput.warning("radio \(url): skipped \(message)") }
        case .json:
            output.write(event.jsonLine(title: title) + "\n")
        case .lines, .terminal:
            let clearing = clearing()
            if output.write(clearing + PlayView.describe(event, title: title) + "\n"), !clearing.isEmpty { drawnLengths = [] }
        }
    }

    /// Redraws the status block (terminal mode only).
    func draw(_ status: PlayerStatus, speed: Double?, peaks: [(bus: String, level: Double)], volume: PlayerVolumes = PlayerVolumes()) {
        guard mode == .terminal else { return }
        for (bus, level) in peaks {
            if let i = meters.firstIndex(where: { $0.0 == bus }) {
                meters[i].1 = max(level, meters[i].1 - 1.5)
            } else if level > -.infinity {
                meters.append((bus, level))
            }
        }
        let icon = status.state == .paused ? "⏸" : status.state == .reconnecting ? "⚠" : "▶"
        var lines = [
            "\(icon) \(title)  \(CLIOutput.clock(status.position).dropLast(4)) / \(CLIOutput.clock(status.duration).dropLast(4))  (\(CLIOutput.clock(status.remaining).dropLast(4)) left)",
            "  " + (status.segment.map { "segment: \($0)  " } ?? "") + (speed.map { String(cFormat: "speed %.0f", $0) } ?? "")
                + String(cFormat: "  xruns %d  latency %.1f ms", status.xruns, status.latencyMilliseconds)
                + (info.map { "  \($0.isRealtime ? $0.scheduling : "normal priority")" } ?? "")
                + (volume.muted ? "  muted" : volume.master.value != 0 ? "  volume " + PlayView.decibels(volume.master) : ""),
        ]
        for (bus, level) in meters {
            let trim = volume.buses[bus].map { $0.value != 0 ? "  (volume \(PlayView.decibels($0)))" : "" } ?? ""
            lines.append("  " + PlayView.meter(bus, level) + trim)
        }
        if let problem = status.deviceProblem { lines.append("  device lost, retrying: \(problem)") }
        for station in status.radio { lines.append("  " + RadioLine.status(station)) }
        lines.append("  [space] pull over  [←/→] ±30 s  [+/−] speed  [?] keys  [q] quit")
        if showsKeyHelp {
            lines.append("  keys:")
            for (keys, action) in PlayView.keyHelp { lines.append("    " + keys.padded(toLength: 11) + action) }
        }
        // Each line fits the width (one column to spare, so no terminal wraps it), and the
        // block fits the height (one row to spare): the cursor never goes up past the top.
        let width = max(2, (TerminalInput.columns ?? 80) - 1)
        lines = lines.map { line in
            let line = line.terminalSafe   // a title or station name from outside
            return line.count > width ? String(line.prefix(width - 1)) + "…" : line
        }
        if let height = TerminalInput.rows, lines.count > height - 1 { lines = Array(lines.prefix(max(1, height - 1))) }
        // One write: the block is replaced whole, or (stdout not taking it) left as it is.
        let block = clearing() + lines.map { "\u{1B}[2K" + $0 + "\n" }.joined()
        if output.write(block, counted: false) { drawnLengths = lines.map(\.count) }
    }

    /// `-6 dB`, `+3 dB`, `-∞ dB`.
    static func decibels(_ level: Decibels) -> String {
        level.value == -.infinity ? "-∞ dB" : String(cFormat: "%+.0f dB", level.value)
    }

    /// `engine   ██████████░░░░░░░░░░  -18 dB` (−60…0 dBFS).
    static func meter(_ bus: String, _ level: Double) -> String {
        let width = 24
        let filled = level.isFinite ? Int(((level + 60) / 60 * Double(width)).rounded()).clamped(0, width) : 0
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
        let db = level.isFinite && level > -60 ? String(cFormat: "%4.0f dB", level) : "   -∞ dB"
        return bus.padded(toLength: 8) + " " + bar + " " + db
    }

    /// What removes the status block so a log line can go above it (after a resize, the
    /// rows its lines wrap to at the new width); empty when none is drawn.
    private func clearing() -> String {
        guard mode == .terminal, !drawnLengths.isEmpty else { return "" }
        let width = max(1, TerminalInput.columns ?? 80)
        // The rows its lines wrap to, never more than the terminal has (after a resize).
        let rows = min(drawnLengths.reduce(0) { $0 + max(1, ($1 + width - 1) / width) }, max(1, (TerminalInput.rows ?? Int.max) - 1))
        return "\r\u{1B}[\(rows)A\u{1B}[J"
    }

    /// Clears the status block and waits at most `drainSeconds` for stdout to take what is
    /// queued; says in one line how many events did not reach it.
    func finish() {
        let clearing = clearing()
        if !clearing.isEmpty, output.write(clearing, counted: false) { drawnLengths = [] }
        _ = output.drain(timeoutSeconds: PlayView.drainSeconds)
        let lost = output.droppedCount + output.unwrittenCount
        if lost > 0 { CLIOutput.warning("\(lost) event\(lost == 1 ? "" : "s") dropped: stdout is not being read") }
    }

    /// The line for `event`, terminal-safe (titles, marks, tags and station names come from
    /// outside: a control character in one is shown as a visible escape).
    static func describe(_ event: PlayerEvent, title: String) -> String {
        line(event, title: title).terminalSafe
    }

    private static func line(_ event: PlayerEvent, title: String) -> String {
        func t(_ s: Double) -> String { String(CLIOutput.clock(s).dropLast(4)) }
        switch event {
        case .started(let i):
            var line = "playing \"\(title)\" on \(i.device): \(i.sampleRate) Hz, \(i.periodFrames)×\(i.bufferFrames / max(1, i.periodFrames)) frames, \(i.format.rawValue), "
            line += i.isRealtime ? i.scheduling : "normal priority (\(i.scheduling.replacing("normal (", with: "").dropLast()))"
            return line
        case .mark(let name, let time, let markTitle): return "\(t(time))  \(markTitle ?? name)"
        case .xrun(let count, let time, let lost):
            return t(time) + String(cFormat: "  underrun #%d: recovered, skipped %.0f ms to stay on time", count, lost * 1000)
        case .deviceError(let message): return "device error: \(message); retrying"
        case .deviceRestored(let time): return "\(t(time))  device back, playing on"
        case .paused(let time): return "\(t(time))  pulled over (space to resume)"
        case .resumed(let time): return "\(t(time))  back on the road"
        case .seeked(let time): return "\(t(time))  seek"
        case .triggered(let name, let time): return "\(t(time))  \(name)"
        case .volumeChanged(let bus, let decibels, let muted):
            return (bus.map { "volume \($0): " } ?? "volume: ") + (muted ? "muted" : PlayView.decibels(Decibels(decibels)))
        case .ended(let reason, let time, let xruns):
            let how = reason == .finished ? "finished" : reason == .stopped ? "stopped" : "failed: the device did not come back"
            return "\(t(time))  \(how) (\(xruns) underrun\(xruns == 1 ? "" : "s"))"
        case .radio(let event): return RadioLine.describe(event)
        case .latencyChanged(let latency, let period, let buffer):
            return "latency \(latency.rawValue): \(period)-frame blocks, at most \(buffer) frames queued"
        }
    }
}

extension Int {
    func clamped(_ lo: Int, _ hi: Int) -> Int { Swift.min(hi, Swift.max(lo, self)) }
}
