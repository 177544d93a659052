import CabinJSON

extension DocumentReader {
    /// `"focus": { "parameter": "speed", "away": 15, "fall": "8s", "rise": "6s", "haptic": "speed-bump",
    /// "sound": "ui/gear-shift", "bus": "ui", "gain": -3 }` (every key optional).
    mutating func readFocus(_ value: JSONValue, buses: [Bus], parameters: [Parameter]) -> FocusSettings? {
        let path = JSONPath.root.key("focus")
        guard let o = value.object(at: path, in: &diagnostics) else { return nil }
        o.warnUnknownKeysAsErrors(known: Set(FocusSettings.keys), at: path, in: &diagnostics)
        var focus = FocusSettings()
        focus.writtenKeys = Set(o.members.map(\.key))
        if let v = o["parameter"], let name = v.string(at: path.key("parameter"), in: &diagnostics),
           reference(name, v, at: path.key("parameter"), kind: "parameter", known: parameters.map(\.name)) {
            focus.parameter = name
        } else if o["parameter"] == nil, parameters.contains(where: { $0.name == "speed" }) {
            focus.parameter = "speed"
        }
        if let v = o["away"] {
            if let name = focus.parameter, let p = parameters.first(where: { $0.name == name }) {
                focus.away = number(v, at: path.key("away"), in: p.min...p.max, what: "\(name)'s value when away",
                                    rule: "session.parameter-range")
            } else {
                diagnostics.error("\"away\" needs a parameter to fall (\"parameter\", or a \"speed\" parameter)",
                                  at: v.location, path: path.key("away"), value: v.excerpt, rule: "session.focus")
            }
        }
        for key in ["fall", "rise"] {
            guard let v = o[key], let seconds = time(v, at: path.key(key)) else { continue }
            if key == "fall" { focus.fall = seconds } else { focus.rise = seconds }
        }
        if let v = o["haptic"], let text = v.string(at: path.key("haptic"), in: &diagnostics),
           let pattern = hapticReference(text, v, at: path.key("haptic")) {
            focus.haptic = pattern
        }
        if let v = o["sound"] { focus.sound = sound(v, at: path.key("sound")) }
        if let b = o["bus"], let name = b.string(at: path.key("bus"), in: &diagnostics),
           reference(name, b, at: path.key("bus"), kind: "bus", known: buses.map(\.name)) {
            focus.bus = name
        }
        if let g = o["gain"], let db = decibels(g, at: path.key("gain")) { focus.gain = db }
        return focus
    }
}
