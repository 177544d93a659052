import CabinAudio
import CabinIO
import CabinPlayback
import FoundationEssentials
import Glibc

/// A one-line progress bar on stderr (percent, speed, ETA), only when stderr is a
/// terminal; silent otherwise so logs and pipes stay clean.
final class ProgressBar {
    private let enabled = isatty(STDERR_FILENO) == 1
    private let start = Date()
    private var lastDraw = Date.distantPast
    private let label: String
    private let secondsPerUnit: Double

    /// `secondsPerUnit` converts progress units (frames) into media seconds for the speed.
    init(label: String, secondsPerUnit: Double) {
        self.label = label
        self.secondsPerUnit = secondsPerUnit
    }

    func update(_ done: Int64, of total: Int64) {
        guard enabled, total > 0 else { return }
        let now = Date()
        guard done == total || now.timeIntervalSince(lastDraw) >= 0.1 else { return }
        lastDraw = now
        let fraction = Double(done) / Double(total)
        let elapsed = now.timeIntervalSince(start)
        let speed = elapsed > 0 ? Double(done) * secondsPerUnit / elapsed : 0
        let eta = fraction > 0 ? elapsed * (1 - fraction) / fraction : 0
        let width = 30
        let filled = Int(fraction * Double(width))
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
        let line = "\r\(label) \(bar) " + String(cFormat: "%3d%%  %.0f× real time  ETA ", Int(fraction * 100), speed)
            + String(CLIOutput.clock(eta.rounded(.up)).dropLast(4)) + " "
        StandardStreams.writeError(line)
    }

    /// Prints `line` on stderr above the bar (which is drawn again at the next update).
    func interject(_ line: String) {
        if enabled { StandardStreams.writeError("\r\u{1B}[2K") }
        StandardStreams.writeError(line + "\n")
        lastDraw = .distantPast
    }

    func finish() {
        guard enabled else { return }
        StandardStreams.writeError("\r\u{1B}[2K")
    }
}
