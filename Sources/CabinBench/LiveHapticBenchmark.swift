import CabinAudio
import CabinIO
import CabinSession

/// What following a session live costs the rumble thread (`cabin bench --live-haptics`):
/// the whole session stepped as `SessionRumble` steps it — every 50 ms step's continuous
/// signal on the 1 kHz grid (``LiveHapticSignal/sampled(fromMilliseconds:count:heldSharpness:)``,
/// which evaluates only the instances that sound in the step) and every transient as felt —
/// against the same points evaluated over every instance of the session, as the follower
/// did before it picked them by time (the reference), and the offline plan's sampling of
/// the timeline (``SessionHapticSignal/sampled(from:count:)``).
///
/// Thread: any thread (allocates; measures CPU time of the calling thread).
package enum LiveHapticBenchmark {
    package struct Figures: Sendable {
        /// Pattern instances (cues and stretches of layers) in the session.
        package var instances: Int
        /// CPU microseconds per second of session: the live follower, every instance at
        /// every point (the reference), and the offline plan's sampling.
        package var live: Double
        package var everyInstance: Double
        package var offline: Double
        /// Largest difference between the live follower's intensities and the reference's.
        package var largestDifference: Double
    }

    package static func measure(_ session: CompiledSession, stepMilliseconds step: Int = 50) -> Figures {
        let signal = LiveHapticSignal(session)
        let steps = Int(signal.duration * 1000) / step
        var sink = 0.0, difference = 0.0
        func cpu() -> Double { ThreadCPUClock.seconds() }
        var live: [Float] = []
        live.reserveCapacity(steps * step)
        var begin = cpu()
        var held = 0.0
        for s in 0..<steps {
            let window = signal.sampled(fromMilliseconds: s * step, count: step, heldSharpness: held)
            held = Double(window.sharpness.last ?? 0)
            live += window.intensity
            let lower = Double(s * step) / 1000, upper = Double((s + 1) * step) / 1000
            var i = signal.firstTransient(after: lower - 0.0005)
            while i < signal.transients.count && signal.transients[i].time <= upper {
                sink += signal.felt(i)?.intensity ?? 0
                i += 1
            }
        }
        let liveSeconds = cpu() - begin
        begin = cpu()
        held = 0
        for k in 0..<(steps * step) {
            let v = signal.value(at: Double(k) / 1000, heldSharpness: held)
            held = v.sharpness
            difference = max(difference, abs(v.intensity - Double(live[k])))
        }
        let everySeconds = cpu() - begin
        let offline = SessionHapticSignal(building: session)
        begin = cpu()
        for s in 0..<steps { sink += Double(offline.sampled(from: s * step, count: step).intensity.last ?? 0) }
        let offlineSeconds = cpu() - begin
        if sink.isNaN { print("") }
        let per = 1e6 / max(signal.duration, 1e-9)
        return Figures(instances: offline.segmentCount, live: liveSeconds * per, everyInstance: everySeconds * per,
                       offline: offlineSeconds * per, largestDifference: difference)
    }
}
