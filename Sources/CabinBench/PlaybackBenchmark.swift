import CabinAudio
import CabinIO
import CabinOutput
import CabinPlayback
import CabinSession

/// Measurements for `cabin bench`: offline render speed, live playback at several period
/// sizes with and without real-time priority, peak memory.
///
/// Thread: control thread only.
package enum PlaybackBenchmark {
    /// Offline: seconds of session rendered per second of CPU, at a block size.
    package struct RenderFigure: Sendable {
        package var blockFrames: Int
        package var speed: Double
        /// CPU share of one core needed to play in real time, in percent.
        package var cpuPercentAtRealTime: Double { 100 / speed }
    }

    package static func measure(_ session: CompiledSession, seconds: Double, blockFrames: Int) -> RenderFigure {
        let runner = SessionRunner(session)
        let frames = Int(min(seconds, session.duration) * session.sampleRate)
        let block = UnsafeMutableBufferPointer<Float>.allocate(capacity: 2 * blockFrames)
        defer { block.deallocate() }
        let start = ThreadCPUClock.seconds()
        var done = 0
        while done < frames {
            done += max(1, runner.render(into: block, frameCount: min(blockFrames, frames - done)))
        }
        let cpu = max(1e-9, ThreadCPUClock.seconds() - start)
        return RenderFigure(blockFrames: blockFrames, speed: Double(frames) / session.sampleRate / cpu)
    }

    /// Live: one run on a device (with `silence`, the floor: the same poll/write loop
    /// writing silence, no mixing).
    package struct PlayFigure: Sendable {
        package var periodFrames: Int
        package var periods: Int
        package var realtime: Bool
        package var scheduling: String
        package var seconds: Double
        package var xruns: Int
        /// Render-thread CPU as a percentage of one core.
        package var renderCPUPercent: Double
    }

    package static func play(_ session: CompiledSession, device: String, periodFrames: Int, periods: Int,
                            realtime: Bool, seconds: Double, silence: Bool = false) throws -> PlayFigure {
        var options = LivePlayer.Options(device: device, configuration: OutputConfiguration(
            sampleRate: Int(session.sampleRate), periodFrames: periodFrames, periodCount: periods))
        options.realtime = realtime
        options.rendersSilence = silence
        let player = try LivePlayer(session: session, options: options)
        var scheduling = ""
        let start = MonotonicClock.seconds()
        try player.start()
        while !player.isFinished && MonotonicClock.seconds() - start < seconds {
            for event in player.poll() { if case .started(let info) = event { scheduling = info.scheduling } }
            ThreadSleep.microseconds(50_000)
        }
        let wall = MonotonicClock.seconds() - start
        player.stopNow()
        for event in player.poll() { if case .started(let info) = event { scheduling = info.scheduling } }
        return PlayFigure(periodFrames: periodFrames, periods: periods, realtime: realtime, scheduling: scheduling,
                          seconds: wall, xruns: player.status.xruns,
                          renderCPUPercent: player.renderThreadCPUSeconds / wall * 100)
    }

    /// Peak resident memory of this process in MB. The corresponding C function is `getrusage`.
    package static func peakResidentMegabytes() -> Double {
        Double(ThisProcess.peakResidentKilobytes) / 1024
    }
}
