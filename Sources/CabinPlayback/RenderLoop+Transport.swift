import CabinAudio
import CabinIO
import CabinSession
import Glibc

extension RenderLoop {
    /// Pause, resume, quit and seek requests from the control thread, each with a fade.
    mutating func applyTransport() {
        // Read first: an atomic exchange on every period would cost a locked instruction.
        var request = PlayerShared.Transport.none
        if shared.transport.load(ordering: .relaxed) != 0 {
            request = PlayerShared.Transport(rawValue: shared.transport.exchange(0, ordering: .acquiringAndReleasing)) ?? .none
        }
        switch request {
        case .none:
            break
        case .pause:
            if phase == .playing {
                withRunner { $0.perform(.setMasterGain(to: .silence, overFrames: Int64(fadeFrames))) }
                phase = .fading(then: .pause, framesLeft: fadeFrames)
                shared.pauses.add(1, ordering: .releasing)
            }
        case .resume:
            if phase == .paused || phase == .fading(then: .pause, framesLeft: 0) || isFadingTo(.pause) {
                withRunner { $0.perform(.setMasterGain(to: 0, overFrames: Int64(fadeFrames))) }
                phase = .playing
                shared.state.store(PlayerShared.State.playing.rawValue, ordering: .releasing)
                shared.resumes.add(1, ordering: .releasing)
            }
        case .quit:
            switch phase {
            case .paused: drain(.stopped)
            case .draining: break
            default:
                withRunner { $0.perform(.setMasterGain(to: .silence, overFrames: Int64(fadeFrames))) }
                phase = .fading(then: .quit, framesLeft: fadeFrames)
            }
        }
        // A seek: swap runners (after a short fade while playing; at once while paused).
        if shared.pending.load(ordering: .acquiring) != 0 && shared.retired.load(ordering: .acquiring) == 0 {
            switch phase {
            case .playing:
                withRunner { $0.perform(.setMasterGain(to: .silence, overFrames: Int64(seekFadeFrames))) }
                phase = .fading(then: .swap, framesLeft: seekFadeFrames)
            case .paused:
                swapRunner()
                withRunner { $0.perform(.setMasterGain(to: .silence, overFrames: 0)) }
            default:
                break
            }
        }
    }

    func isFadingTo(_ action: FadeAction) -> Bool {
        if case .fading(let a, _) = phase { return a == action }
        return false
    }

    /// Takes the pending runner; the old one goes to `retired` for the control thread to free.
    mutating func swapRunner() {
        let bits = shared.pending.exchange(0, ordering: .acquiringAndReleasing)
        guard let next = RunnerSlot.borrow(bits) else { return }
        let old = shared.slot.exchange(bits, ordering: .acquiringAndReleasing)
        shared.retired.store(old, ordering: .releasing)
        slot = next
        runnerReference = Unmanaged.passUnretained(next.takeUnretainedValue().runner)
        base = next.takeUnretainedValue().base
        shared.seeks.add(1, ordering: .releasing)
    }

    /// After an underrun the device played silence for a while: skip the session by the
    /// time lost, so it stays on the wall clock and ends on time.
    mutating func catchUpAfterUnderrun() {
        let xruns = output.xrunCount
        guard xruns != knownXruns else { return }
        knownXruns = xruns
        let expected = Int64(((backend.now() - startTime) * rate).rounded())
        let lost = max(0, expected - framesWritten)
        framesWritten += lost
        if lost > 0 && phase != .paused && !rendersSilence { withRunner { $0.skip(Int(lost), scratch: scratch) } }
        shared.xruns.store(xruns, ordering: .releasing)
        shared.lostFrames.add(lost, ordering: .releasing)
    }

    /// Publishes the position the listener hears and the output latency (the device's delay
    /// is asked for about every 20 ms; between, it is estimated from the last answer).
    mutating func publish() {
        if framesWritten - lastDelayQuery >= Int64(rate / 50) || lastDelayQuery == 0 {
            lastDelay = output.delayFrames() ?? 0
            lastDelayQuery = framesWritten
        }
        let delay = lastDelay
        shared.delayFrames.store(delay, ordering: .relaxed)
        shared.position.store(max(0, absolutePosition - FrameTime(delay)), ordering: .releasing)
    }
}
