import CabinAudio
import CabinJSON

extension SessionDocument {
    /// The document as session-format JSON (what `cabin session --preset …` prints): times
    /// as `12m30s`, buses that differ from the defaults (a number, or an object when the bus
    /// has effects), cues one object each. Reading it
    /// back gives the same document.
    public func json() -> String { jsonValue().serialized(pretty: true) }

    /// The document as a JSON value: what `json()` serializes.
    public func jsonValue() -> JSONValue {
        var members: [(String, JSONValue)] = [("cabin", .number(version))]
        if let title { members.append(("title", .string(title))) }
        if durationIsExplicit { members.append(("duration", .string(SessionTime.format(duration)))) }
        if let loudness { members.append(("loudness", num(loudness))) }
        if seed != 0 { members.append(("seed", .number(Int(seed)))) }
        let defaults = SessionDocument.defaultBuses
        let changed = buses.filter { bus in defaults.first { $0.name == bus.name }?.gain != bus.gain || !bus.effects.isEmpty }
        if !changed.isEmpty { members.append(("buses", .object(changed.map { ($0.name, Self.busJSON($0)) }))) }
        if !ducking.isEmpty {
            members.append(("ducking", .array(ducking.map { rule in
                var row: [(String, JSONValue)] = [("when", .string(rule.when)), ("duck", .array(rule.duck.map { .string($0) })),
                                                  ("by", num(rule.by)), ("attack", .string(SessionTime.format(rule.attack))),
                                                  ("release", .string(SessionTime.format(rule.release)))]
                if let band = rule.band { row.append(("band", .array([num(band.lowerBound), num(band.upperBound)]))) }
                return .object(row)
            })))
        }
        if !parameters.isEmpty {
            members.append(("parameters", .object(parameters.map { p in
                (p.name, .object([("value", num(p.value)), ("min", num(p.min)), ("max", num(p.max))]))
            })))
        }
        if let focus { members.append(("focus", Self.focusJSON(focus))) }
        if !layers.isEmpty || !hapticLayers.isEmpty {
            members.append(("layers", .object(layers.map { ($0.name, Self.layerJSON($0)) }
                                              + hapticLayers.map { ($0.name, Self.hapticLayerJSON($0)) })))
        }
        if !cues.isEmpty { members.append(("cues", .array(cues.map(Self.cueJSON)))) }
        if hapticStrength != .strong { members.append(("hapticStrength", .string(hapticStrength.rawValue))) }
        return .object(members)
    }

    static func busJSON(_ bus: Bus) -> JSONValue {
        if bus.effects.isEmpty { return num(bus.gain) }
        return .object([("gain", num(bus.gain))] + bus.effects.map { ($0.key, effectJSON($0)) })
    }

    /// An effect whose parameters other than the main one are at their defaults as its
    /// main value (`"lowpass": 8000`), else an object of every parameter.
    static func effectJSON(_ effect: Bus.Effect) -> JSONValue {
        guard let declared = DocumentEffect.named(effect.key), effect.values.count == declared.parameters.count else {
            return num(effect.value)
        }
        if effect.values == declared.values(main: effect.values[declared.main]) {
            return parameterJSON(effect.values[declared.main], declared.mainParameter)
        }
        return .object(zip(declared.parameters, effect.values).map { ($0.name, parameterJSON($1, $0)) })
    }

    /// A parameter's value in its unit: a duration as a time (`"5ms"`), else a number.
    static func parameterJSON(_ value: Double, _ parameter: EffectParameter) -> JSONValue {
        parameter.unit == .seconds ? .string(DocumentReader.duration(value)) : num(value)
    }

    static func layerJSON(_ layer: Layer) -> JSONValue {
        var m: [(String, JSONValue)] = [("bus", .string(layer.bus))]
        if let s = layer.scatter {
            func range(_ r: ClosedRange<Double>) -> JSONValue { .array([num(r.lowerBound), num(r.upperBound)]) }
            var o: [(String, JSONValue)] = [("sounds", .array(s.sounds.map { .string($0.documentText) })),
                                            ("rate", range(s.rate)), ("gain", range(s.gain)), ("pan", range(s.pan)),
                                            ("pitch", range(s.pitch))]
            if s.spacing != .random { o.append(("spacing", .string(s.spacing.rawValue))) }
            m.append(("scatter", .object(o)))
        } else {
            m.append(("sound", .string(layer.sound.documentText)))
        }
        if layer.isLooping { m.append(("loop", .bool(true))) }
        if layer.gain != 0 { m.append(("gain", num(layer.gain))) }
        if !layer.normalize { m.append(("normalize", .bool(false))) }
        if let pitch = layer.pitch { m.append(("pitch", mapJSON(pitch))) }
        if let gainMap = layer.gainMap { m.append(("gainMap", mapJSON(gainMap))) }
        if let p = layer.playlist, !p.isDefault {
            var o: [(String, JSONValue)] = []
            if p.shuffle { o.append(("shuffle", .bool(true))) }
            if p.crossfadeSeconds > 0 { o.append(("crossfade", .string(SessionTime.format(p.crossfadeSeconds)))) }
            if p.gainMode != .track { o.append(("replayGain", .string(p.gainMode.rawValue))) }
            m.append(("playlist", .object(o)))
        }
        return .object(m)
    }

    static func hapticLayerJSON(_ layer: HapticLayer) -> JSONValue {
        var m: [(String, JSONValue)] = [("haptic", .string(layer.pattern))]
        if layer.isLooping { m.append(("loop", .bool(true))) }
        if let map = layer.intensity { m.append(("intensity", mapJSON(map))) }
        if let map = layer.sharpness { m.append(("sharpness", mapJSON(map))) }
        return .object(m)
    }

    /// The keys the document wrote (defaults it left out stay out).
    static func focusJSON(_ focus: FocusSettings) -> JSONValue {
        var m: [(String, JSONValue)] = []
        let written = focus.writtenKeys
        if let p = focus.parameter, written.contains("parameter") || p != "speed" { m.append(("parameter", .string(p))) }
        if let away = focus.away { m.append(("away", num(away))) }
        if written.contains("fall") || focus.fall != 8 { m.append(("fall", .string(SessionTime.format(focus.fall)))) }
        if written.contains("rise") || focus.rise != 6 { m.append(("rise", .string(SessionTime.format(focus.rise)))) }
        if written.contains("haptic") || focus.haptic != "speed-bump" { m.append(("haptic", .string(focus.haptic))) }
        if let sound = focus.sound { m.append(("sound", .string(sound.documentText))) }
        if written.contains("bus") || focus.bus != "ui" { m.append(("bus", .string(focus.bus))) }
        if focus.gain != 0 { m.append(("gain", num(focus.gain))) }
        return .object(m)
    }

    static func mapJSON(_ map: LayerMap) -> JSONValue {
        .object([("parameter", .string(map.parameter)),
                 ("map", .array(map.points.map { .array([num($0.0), num($0.1)]) }))])
    }

    static func cueJSON(_ cue: Cue) -> JSONValue {
        var m: [(String, JSONValue)] = [("at", .string(SessionTime.format(cue.time)))]
        if let mark = cue.mark {
            m.append(("mark", cue.markTitle.map { .object([("name", .string(mark)), ("title", .string($0))]) } ?? .string(mark)))
        }
        if let play = cue.play {
            m.append(("play", .string(play.sound.documentText)))
            m.append(("bus", .string(play.bus)))
            if play.gain != 0 { m.append(("gain", num(play.gain))) }
        }
        if let say = cue.say {
            m.append(("say", .string(say.text)))
            if let voice = say.voice { m.append(("voice", .string(voice))) }
            if say.bus != "voice" { m.append(("bus", .string(say.bus))) }
            if say.gain != 0 { m.append(("gain", num(say.gain))) }
            if let fallback = say.fallback { m.append(("fallback", .string(fallback.documentText))) }
        }
        if let haptic = cue.haptic { m.append(("haptic", .string(haptic))) }
        func names(_ list: [String]) -> JSONValue { list.count == 1 ? .string(list[0]) : .array(list.map { .string($0) }) }
        if !cue.start.isEmpty {
            m.append(("start", names(cue.start)))
            if let f = cue.fadeIn { m.append(("fadeIn", .string(SessionTime.format(f)))) }
        }
        if !cue.stop.isEmpty {
            m.append(("stop", names(cue.stop)))
            if let f = cue.fadeOut { m.append(("fadeOut", .string(SessionTime.format(f)))) }
        }
        if let fade = cue.fade {
            m += [("fade", .string(fade.layer)), ("to", num(fade.to)), ("over", .string(SessionTime.format(fade.over)))]
        }
        if let x = cue.crossfade {
            m += [("crossfade", .string(x.layer)), ("to", .string(x.to.documentText)), ("over", .string(SessionTime.format(x.over)))]
        }
        if let x = cue.hapticCrossfade {
            m += [("crossfade", .string(x.layer)), ("to", .string(x.to)), ("over", .string(SessionTime.format(x.over)))]
        }
        if let trigger = cue.trigger { m.append(("trigger", .string(trigger.rawValue))) }
        if let set = cue.set {
            m += [("set", .string(set.parameter)), ("to", num(set.to)), ("over", .string(SessionTime.format(set.over)))]
        }
        if let e = cue.effect {
            m.append((e.effect, .string(e.bus)))
            let declared = DocumentEffect.named(e.effect)
            if !e.movesMain { m.append(("parameter", .string(e.parameter))) }
            let parameter = declared?.index(of: e.parameter).map { declared!.parameters[$0] }
            m += [("to", parameter.map { parameterJSON(e.to, $0) } ?? num(e.to)), ("over", .string(SessionTime.format(e.over)))]
        }
        return .object(m)
    }
}

/// A number as a document writes it: `62`, not `62.0`.
func num(_ x: Double) -> JSONValue {
    x == x.rounded() && abs(x) < 1e15 ? .number(Int(x)) : .number(x)
}

extension SoundReference {
    /// How the reference is written in a document so that it reads back the same.
    public var documentText: String {
        if case .file(let path) = self, case .success(.library) = SoundReferenceParser.parse(path) { return "./" + path }
        return description
    }
}
