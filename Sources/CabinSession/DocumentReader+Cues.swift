import CabinAudio
import CabinJSON

/// The `cues` array: every verb checked against the layers, buses and parameters.
extension DocumentReader {
    static let cueKeys = Set(["at", "play", "say", "voice", "fallback", "bus", "gain", "haptic", "start",
                              "fadeIn", "stop", "fadeOut", "fade", "crossfade", "set", "to", "over", "mark", "trigger",
                              "parameter"]
                             + DocumentEffect.keys)
    /// The verbs that share `to` and `over`.
    static let rampVerbs = ["fade", "crossfade", "set"] + DocumentEffect.keys
    /// Most cues in one document (a 24-hour session with a cue every second is 86,400).
    static let maxCues = 100_000
    /// Most characters in one `say` text (a spoken cue is a sentence or two, not a book).
    static let maxSayCharacters = 1000

    mutating func readCues(_ value: JSONValue?, buses: [Bus], layers: [Layer], parameters: [Parameter],
                           focus: FocusSettings?) -> [Cue] {
        guard let value else { return [] }
        let path = JSONPath.root.key("cues")
        guard let rows = value.array(at: path, in: &diagnostics) else { return [] }
        guard rows.count <= Self.maxCues else {
            diagnostics.error("\(rows.count) cues; a session has at most \(Self.maxCues)", at: value.location, path: path,
                              rule: "session.cue-count")
            return []
        }
        var out: [Cue] = []
        for (i, row) in rows.enumerated() {
            if let cue = readCue(row, index: i, at: path.index(i), buses: buses, layers: layers, parameters: parameters,
                                 focus: focus) {
                out.append(cue)
            }
        }
        return out
    }

    private mutating func readCue(_ row: JSONValue, index: Int, at p: JSONPath, buses: [Bus], layers: [Layer],
                                  parameters: [Parameter], focus: FocusSettings?) -> Cue? {
        guard let o = row.object(at: p, in: &diagnostics) else { return nil }
        o.warnUnknownKeysAsErrors(known: Self.cueKeys, at: p, in: &diagnostics)
        let errorsBefore = diagnostics.errors.count
        let at = o.required("at", at: p.key("at"), objectLocation: row.location, in: &diagnostics)
            .flatMap { time($0, at: p.key("at")) }
        var cue = Cue(time: at ?? 0, index: index)
        let layerNames = layers.map(\.name) + hapticLayers.map(\.name)

        if o["play"] != nil && o["say"] != nil {
            diagnostics.error("a cue can play a sound or say a text, not both (they share \"bus\" and \"gain\")",
                              at: o.member("say")!.keyLocation, path: p.key("say"), rule: "session.cue-verbs")
        } else if let v = o["say"], let text = v.string(at: p.key("say"), in: &diagnostics) {
            if text.trimmingWhitespace().isEmpty {
                diagnostics.error("\"say\" needs words to speak", at: v.location, path: p.key("say"), value: v.excerpt,
                                  rule: "session.say")
            } else if text.count > Self.maxSayCharacters {
                diagnostics.error("\"say\" is \(text.count) characters; a spoken cue is at most \(Self.maxSayCharacters) (split it over several cues)",
                                  at: v.location, path: p.key("say"), value: v.excerpt, rule: "session.say")
            }
            var speech = Cue.Speech(text: text)
            if let voice = o["voice"] { speech.voice = voice.string(at: p.key("voice"), in: &diagnostics) }
            if let f = o["fallback"] { speech.fallback = sound(f, at: p.key("fallback")) }
            (speech.bus, speech.gain) = busAndGain(o, at: p, default: "voice", buses: buses)
            cue.say = speech
        } else {
            for key in ["voice", "fallback"] { misplaced(key, in: o, at: p, belongsTo: "say") }
            if let v = o["play"] {
                let (bus, gain) = busAndGain(o, at: p, default: "ui", buses: buses)
                if let sound = sound(v, at: p.key("play")) { cue.play = Cue.OneShot(sound: sound, bus: bus, gain: gain) }
            } else {
                for key in ["bus", "gain"] { misplaced(key, in: o, at: p, belongsTo: "play or say") }
            }
        }
        if let v = o["haptic"], let text = v.string(at: p.key("haptic"), in: &diagnostics) {
            cue.haptic = hapticReference(text, v, at: p.key("haptic"))
        }
        if let v = o["trigger"], let name = v.string(at: p.key("trigger"), in: &diagnostics) {
            if let event = FocusEvent(rawValue: name) {
                if focus == nil {
                    diagnostics.error("\"trigger\": \"\(name)\" needs \"focus\" at the top level (\"focus\": {} takes the defaults)",
                                      at: v.location, path: p.key("trigger"), value: v.excerpt, rule: "session.focus")
                }
                cue.trigger = event
            } else {
                diagnostics.error("unknown event \(v.excerpt): a cue triggers \(FocusEvent.allCases.map(\.rawValue).joined(separator: " or "))",
                                  at: v.location, path: p.key("trigger"), value: v.excerpt, rule: "session.trigger")
            }
        }
        cue.start = layerList(o["start"], at: p.key("start"), layers: layerNames)
        cue.stop = layerList(o["stop"], at: p.key("stop"), layers: layerNames)
        if o["start"] != nil { cue.fadeIn = o["fadeIn"].flatMap { time($0, at: p.key("fadeIn")) } } else { misplaced("fadeIn", in: o, at: p, belongsTo: "start") }
        if o["stop"] != nil { cue.fadeOut = o["fadeOut"].flatMap { time($0, at: p.key("fadeOut")) } } else { misplaced("fadeOut", in: o, at: p, belongsTo: "stop") }
        readRamp(o, row: row, at: p, into: &cue, layers: layerNames, parameters: parameters, buses: buses)
        if let v = o["mark"] { (cue.mark, cue.markTitle) = readMark(v, at: p.key("mark")) }
        let verbs = ["play", "say", "haptic", "start", "stop"] + Self.rampVerbs + ["mark", "trigger"]
        if !verbs.contains(where: { o[$0] != nil }) {
            diagnostics.error("this cue does nothing: give it one of \(verbs.joined(separator: ", "))",
                              at: row.location, path: p, rule: "session.empty-cue")
        }
        return diagnostics.errors.count == errorsBefore && at != nil ? cue : nil
    }

    /// Most characters in a mark's title (a line in a status bar or a media widget).
    static let maxMarkTitleCharacters = 100

    /// `"mark": "rest"`, or `"mark": { "name": "rest", "title": "rest stop" }`: the name
    /// (for hooks and scripts) and the title people see, if any.
    private mutating func readMark(_ v: JSONValue, at path: JSONPath) -> (String?, String?) {
        var name: String?, title: String?
        var nameValue = v
        if let object = v.objectValue {
            object.warnUnknownKeysAsErrors(known: ["name", "title"], at: path, in: &diagnostics)
            guard let n = object.required("name", at: path.key("name"), objectLocation: v.location, in: &diagnostics) else {
                return (nil, nil)
            }
            nameValue = n
            name = n.string(at: path.key("name"), in: &diagnostics)
            if let t = object["title"], let text = t.string(at: path.key("title"), in: &diagnostics) {
                if text.trimmingWhitespace().isEmpty || text.contains(where: \.isNewline) {
                    diagnostics.error("a mark's title is one line of words (\"rest stop\"), or leave \"title\" out",
                                      at: t.location, path: path.key("title"), value: t.excerpt, rule: "session.mark")
                } else if text.count > Self.maxMarkTitleCharacters {
                    diagnostics.error("a mark's title is \(text.count) characters; at most \(Self.maxMarkTitleCharacters)",
                                      at: t.location, path: path.key("title"), value: t.excerpt, rule: "session.mark")
                } else {
                    title = text
                }
            }
        } else if case .string(let text) = v.kind {
            name = text
        } else {
            v.mismatch("a name (\"rest\") or an object ({ \"name\": \"rest\", \"title\": \"rest stop\" })", at: path, in: &diagnostics)
            return (nil, nil)
        }
        if name?.isEmpty == true {
            diagnostics.error("a mark needs a name (drive, rest, arrival …)", at: nameValue.location,
                              path: v.objectValue == nil ? path : path.key("name"), value: nameValue.excerpt, rule: "session.mark")
        }
        return (name, title)
    }

    /// The `bus` (checked against the buses) and `gain` that `play` and `say` share.
    private mutating func busAndGain(_ o: JSONObject, at p: JSONPath, default bus: String,
                                     buses: [Bus]) -> (String, Double) {
        var name = bus
        if let b = o["bus"], let given = b.string(at: p.key("bus"), in: &diagnostics),
           reference(given, b, at: p.key("bus"), kind: "bus", known: buses.map(\.name)) { name = given }
        return (name, o["gain"].flatMap { decibels($0, at: p.key("gain")) } ?? 0)
    }

    /// `fade`, `crossfade`, `set` and the effect verbs share `to` and `over`: at most one per cue.
    private mutating func readRamp(_ o: JSONObject, row: JSONValue, at p: JSONPath, into cue: inout Cue,
                                   layers: [String], parameters: [Parameter], buses: [Bus]) {
        let present = Self.rampVerbs.filter { o[$0] != nil }
        if present.count > 1 {
            let second = present.compactMap { o.member($0) }.max { $0.keyLocation < $1.keyLocation }!
            diagnostics.error("\(present.joined(separator: " and ")) share \"to\" and \"over\": put them in separate cues at the same time",
                              at: second.keyLocation, path: p.key(second.key), rule: "session.cue-verbs")
            return
        }
        guard let verb = present.first, let target = o[verb] else {
            let verbs = Self.rampVerbs.dropLast().joined(separator: ", ") + " or " + Self.rampVerbs.last!
            for key in ["to", "over"] { misplaced(key, in: o, at: p, belongsTo: verbs) }
            misplaced("parameter", in: o, at: p, belongsTo: DocumentEffect.keys.joined(separator: " or "))
            return
        }
        guard let to = o.required("to", at: p.key("to"), objectLocation: row.location, in: &diagnostics),
              let name = target.string(at: p.key(verb), in: &diagnostics) else { return }
        let over = o["over"].flatMap { time($0, at: p.key("over")) } ?? 0
        if let effect = DocumentEffect.named(verb) {
            cue.effect = effectChange(effect, bus: name, target, o, to: to, over: over, at: p, buses: buses)
            return
        }
        misplaced("parameter", in: o, at: p, belongsTo: DocumentEffect.keys.joined(separator: " or "))
        switch verb {
        case "fade" where hapticLayers.contains { $0.name == name }:
            diagnostics.error("\"\(name)\" is a haptic layer: it starts, stops and crossfades, and its \"intensity\" map sets its level",
                              at: target.location, path: p.key(verb), value: target.excerpt, rule: "session.haptic-layer")
        case "crossfade" where hapticLayers.contains { $0.name == name }:
            guard let text = to.string(at: p.key("to"), in: &diagnostics),
                  let pattern = hapticReference(text, to, at: p.key("to")) else { return }
            cue.hapticCrossfade = Cue.HapticCrossfade(layer: name, to: pattern, over: over)
        case "fade":
            guard reference(name, target, at: p.key(verb), kind: "layer", known: layers),
                  let db = decibels(to, at: p.key("to")) else { return }
            cue.fade = Cue.LayerFade(layer: name, to: db, over: over)
        case "crossfade":
            guard reference(name, target, at: p.key(verb), kind: "layer", known: layers),
                  let sound = sound(to, at: p.key("to")) else { return }
            cue.crossfade = Cue.Crossfade(layer: name, to: sound, over: over)
        default:
            guard reference(name, target, at: p.key(verb), kind: "parameter", known: parameters.map(\.name)),
                  let value = to.number(at: p.key("to"), in: &diagnostics),
                  let parameter = parameters.first(where: { $0.name == name }) else { return }
            if value < parameter.min || value > parameter.max {
                diagnostics.error("\(to.excerpt) is outside \(name)'s range \(SessionTime.format(number: parameter.min))…\(SessionTime.format(number: parameter.max))",
                                  at: to.location, path: p.key("to"), value: to.excerpt, rule: "session.parameter-range")
                return
            }
            cue.set = Cue.ParameterChange(parameter: name, to: value, over: over)
        }
    }

    /// An effect verb: the bus must exist and declare the effect; `"parameter"` (default: the
    /// effect's main one) one of the effect's; `to` in that parameter's unit and range.
    private mutating func effectChange(_ effect: BusEffectDeclaration, bus name: String, _ target: JSONValue,
                                       _ o: JSONObject, to: JSONValue, over: Double, at p: JSONPath,
                                       buses: [Bus]) -> Cue.EffectChange? {
        guard reference(name, target, at: p.key(effect.key), kind: "bus", known: buses.map(\.name)),
              let bus = buses.first(where: { $0.name == name }) else { return nil }
        guard bus.effectIndex(effect.key) != nil else {
            let main = effect.mainParameter
            diagnostics.error("bus \"\(name)\" has no \(effect.key): declare it in \"buses\", e.g. \"\(name)\": { \"gain\": \(NumberText.plain(bus.gain)), \"\(effect.key)\": \(NumberText.plain(main.defaultValue)) }",
                              at: target.location, path: p.key(effect.key), value: target.excerpt, rule: "session.effect")
            return nil
        }
        var index = effect.main
        if let v = o["parameter"] {
            guard let given = v.string(at: p.key("parameter"), in: &diagnostics),
                  reference(given, v, at: p.key("parameter"), kind: "\(effect.key) parameter",
                            known: effect.parameters.map(\.name)),
                  let i = effect.index(of: given) else { return nil }
            index = i
        }
        guard let value = parameterValue(to, effect, index, at: p.key("to"), named: o["parameter"] != nil) else { return nil }
        return Cue.EffectChange(bus: name, effect: effect.key, parameter: effect.parameters[index].name, to: value, over: over)
    }

    private mutating func layerList(_ value: JSONValue?, at path: JSONPath, layers: [String]) -> [String] {
        guard let value else { return [] }
        return names(value, at: path).filter { reference($0.0, $0.1, at: $0.2, kind: "layer", known: layers) }.map(\.0)
    }

    private mutating func misplaced(_ key: String, in o: JSONObject, at p: JSONPath, belongsTo verb: String) {
        guard let member = o.member(key) else { return }
        diagnostics.error("\"\(key)\" goes with \(verb), which this cue does not have", at: member.keyLocation,
                          path: p.key(key), value: member.value.excerpt, rule: "session.cue-verbs")
    }
}
