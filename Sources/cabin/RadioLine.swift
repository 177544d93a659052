import CabinAudio
import CabinPlayback
import FoundationEssentials

/// How `cabin play` shows live streams: event lines, `--json` members, the status line.
enum RadioLine {
    /// The event's line, terminal-safe (a station's title and name come from outside).
    static func describe(_ event: RadioEvent) -> String {
        line(event).terminalSafe
    }

    private static func line(_ event: RadioEvent) -> String {
        switch event {
        case .buffering(let url, let reason): "radio \(url): buffering (\(reason))"
        case .playing(let url, let name, let codec, let seconds):
            "radio \(url): playing \(name.map { "\"\($0)\" " } ?? "")(\(codec)), " + String(cFormat: "%.2f s to buffer", seconds)
        case .title(let url, let title): "radio \(url): now \"\(title)\""
        case .reconnect(let url, let attempt, let delay, let reason):
            "radio \(url): \(reason); reconnecting in " + String(cFormat: "%.0f s (attempt %d)", delay, attempt)
        case .error(let url, let message): "radio \(url): \(message)"
        case .skipped(let url, let message): "radio \(url): skipped \(message)"
        }
    }

    /// `radio ▶ Station name — Artist - Title` for the status block.
    static func status(_ s: RadioStatus) -> String {
        let what = s.name ?? s.url
        let title = s.title.map { " — \($0)" } ?? ""
        return "radio \(s.state.rawValue): \(what)\(title)"
    }
}
