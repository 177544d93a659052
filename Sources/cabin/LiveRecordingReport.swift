import CabinPlayback
import FoundationEssentials

/// What `cabin render --record-live` says about the live streams it records: each event
/// (playing, a title, buffering, a reconnection, an error) as a line with the session time
/// it happened at, and at the end, per stream, how much of it did not arrive.
struct LiveRecordingReport {
    let radio: any SessionRadio
    let sampleRate: Double
    private var baseline: [String: Int] = [:]
    private var reconnections: [String: Int] = [:]
    private var failures: [String: String] = [:]
    private var lastPoll: Int64?

    init(radio: any SessionRadio, sampleRate: Double) {
        self.radio = radio
        self.sampleRate = sampleRate
    }

    /// The recording starts: what the streams missed before it does not count.
    mutating func begin() {
        for (url, frames) in radio.liveStreamUnderflows { baseline[url] = frames }
    }

    /// The lines for the events since the last call (at most every 0.1 s of the timeline),
    /// `frame` being where the render is.
    mutating func poll(at frame: Int64, force: Bool = false) -> [String] {
        guard force || lastPoll.map({ frame - $0 >= Int64(sampleRate / 10) }) ?? true else { return [] }
        lastPoll = frame
        let time = CLIOutput.clock(Double(frame) / sampleRate)
        return radio.poll().compactMap { event in
            switch event {
            case .buffering(_, "connecting"): return nil
            case .reconnect(let url, _, _, _): reconnections[url, default: 0] += 1
            case .error(let url, let message): failures[url] = message
            default: break
            }
            return "cabin: \(time)  \(RadioLine.describe(event))"
        }
    }

    /// One line per live stream: recorded whole, or how much was missing and why.
    func finish() -> [String] {
        radio.liveStreamUnderflows.map { url, frames in
            if failures[url] != nil { return "radio \(url): not recorded (see the error above); its layers are silent" }
            let missing = Double(frames - (baseline[url] ?? 0)) / sampleRate
            let reconnected = reconnections[url, default: 0]
            let attempts = reconnected == 0 ? "" : ", \(reconnected) reconnection attempt\(reconnected == 1 ? "" : "s")"
            if missing <= 0 && reconnected == 0 { return "radio \(url): recorded without a gap" }
            return "radio \(url): recorded; " + String(cFormat: "%.3f s", missing)
                + " of it missing (silence where the stream had not arrived)\(attempts)"
        }
    }
}
