import CabinAudio
import CabinHaptics

extension SessionCompiler.Builder {
    /// The document's `"focus"` resolved: the parameter, its away value, the sound and the
    /// haptic (with its audio on the haptics bus when the session has one).
    mutating func declareFocus() {
        guard let settings = document.focus else { return }
        let parameter = settings.parameter.flatMap { config.parameter(named: $0) }
        let away = settings.away ?? settings.parameter.flatMap { document.parameter(named: $0)?.min } ?? 0
        var focus = CompiledFocus(parameter: parameter, parameterName: settings.parameter, away: away,
                                  fallFrames: frames(settings.fall), riseFrames: frames(settings.rise),
                                  haptic: settings.haptic, hapticAsset: nil, hapticsBus: hapticsBus, sound: nil,
                                  bus: config.bus(named: settings.bus), gain: Decibels(settings.gain))
        if let compiled = loadedPattern(settings.haptic, who: "focus.haptic"), hapticsBus != nil {
            focus.hapticAsset = hapticAsset(settings.haptic, compiled)
        }
        if let sound = settings.sound {
            focus.sound = source(sound, normalize: true, seed: 4000, user: "focus.sound")
        }
        self.focus = focus
    }

    /// A `trigger` cue: what the live event does, at the cue's frame. `leave-focus` plays the
    /// focus haptic and sound and ramps the parameter to `away` over `fall`; `return-focus`
    /// ramps it back over `rise` to the value the timeline had set before the last
    /// `leave-focus` (its latest `set` target, or its initial value).
    mutating func scheduleFocus(_ event: FocusEvent, at: FrameTime, who: String) {
        guard let focus else { return }
        switch event {
        case .leaveFocus:
            scheduleHaptic(focus.haptic, at: at, who: "\(who).trigger", bus: document.focus?.bus ?? "ui")
            if let sound = focus.sound, let bus = focus.bus {
                add(at, .playOneShot(sound, bus: bus, gain: focus.gain))
                if case .asset(let id) = sound {
                    lastSoundEnd = max(lastSoundEnd, at + FrameTime(config.assets[Int(id.index)].frameCount))
                }
            }
            if let id = focus.parameter, let name = focus.parameterName {
                if focusReturnValue == nil {
                    focusReturnValue = parameterTargets[name] ?? document.parameter(named: name)?.value
                }
                add(at, .setParameter(id, to: focus.away, overFrames: focus.fallFrames))
                parameterTargets[name] = focus.away
            }
        case .returnFocus:
            guard let id = focus.parameter, let name = focus.parameterName, let back = focusReturnValue else { return }
            add(at, .setParameter(id, to: back, overFrames: focus.riseFrames))
            parameterTargets[name] = back
            focusReturnValue = nil
        }
    }
}
