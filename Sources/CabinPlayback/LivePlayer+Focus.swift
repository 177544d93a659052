import CabinAudio
import CabinSession

/// Leaving and returning to focus, live: the events a session with a `"focus"` object
/// answers to (`player.trigger("leave-focus")`, `cabin play`'s `l` and `r` keys,
/// `cabin ctl trigger leave-focus`). They do what a `"trigger"` cue does on the timeline,
/// from the next frame the mixer renders: `leave-focus` plays the focus sound (and, with a
/// haptics bus, the speed-bump's audio) and ramps the parameter to its away value over the
/// fall; `return-focus` ramps it back to the value it had when focus was left.
extension LivePlayer {
    /// Registers `leave-focus` and `return-focus` when the session has a `"focus"`.
    func registerFocusEvents() {
        guard session.focus != nil else { return }
        register(LiveEvent(name: FocusEvent.leaveFocus.rawValue,
                           summary: "the speed-bump warning: its haptic and sound, and the speed falls") { $0.leaveFocus() })
        register(LiveEvent(name: FocusEvent.returnFocus.rawValue,
                           summary: "back to focus: the speed comes back") { $0.returnFocus() })
    }

    /// Control thread.
    func leaveFocus() {
        guard let focus = session.focus else { return }
        let handle = currentSlot.runner.handle
        let at = handle.currentFrame
        if let sound = focus.sound, let bus = focus.bus { _ = handle.send(.playOneShot(sound, bus: bus, gain: focus.gain), at: at) }
        if let asset = focus.hapticAsset, let bus = focus.hapticsBus {
            _ = handle.send(.playOneShot(.asset(asset), bus: bus, gain: 0), at: at)
        }
        if let name = focus.parameterName, let id = focus.parameter {
            if focusReturnValue == nil { focusReturnValue = parameterValue(name) }
            rampParameter(name, id, to: focus.away, overFrames: focus.fallFrames, at: at)
        }
        liveHaptics.append(TriggeredHaptic(frame: currentSlot.base + at, pattern: focus.haptic))
        shared.hapticFeed.trigger(pattern: focus.haptic, frame: currentSlot.base + at)
        hapticsOutput?.trigger(pattern: focus.haptic, frame: currentSlot.base + at)
    }

    /// Control thread.
    func returnFocus() {
        guard let focus = session.focus, let name = focus.parameterName, let id = focus.parameter,
              let back = focusReturnValue else { return }
        focusReturnValue = nil
        let handle = currentSlot.runner.handle
        rampParameter(name, id, to: back, overFrames: focus.riseFrames, at: handle.currentFrame)
    }

    /// Haptic cues made live (by `leave-focus`), at the session frame they were sent, for
    /// haptic players that follow the session (and tests).
    public var triggeredHaptics: [TriggeredHaptic] { control.withLock { liveHaptics } }

    /// Where the running session is, for haptic players that follow it live: the render
    /// thread's parameter states and the haptic cues live events made (`SessionRumble`
    /// reads it). Any thread (see `HapticFeed` for who may call what).
    public var hapticFeed: HapticFeed { shared.hapticFeed }
}

/// A haptic pattern a live event started: the session frame it was sent at (the first the
/// mixer had not rendered) and the pattern.
///
/// Thread: a value type; any thread.
public struct TriggeredHaptic: Sendable, Equatable {
    /// The session frame (at the session's rate, from the timeline's start) it was sent at.
    public var frame: FrameTime
    /// The pattern's name, as the session's focus settings give it (`speed-bump`).
    public var pattern: String
}
