import CabinJSON

/// The `buses` object: each bus a gain (`"ambient": -18`) or an object with a gain and
/// effects (`"ambient": { "gain": -18, "lowpass": 8000 }`).
extension DocumentReader {
    mutating func readBuses(_ value: JSONValue?) -> [Bus] {
        var buses = SessionDocument.defaultBuses
        guard let value else { return buses }
        let path = JSONPath.root.key("buses")
        guard let object = value.object(at: path, in: &diagnostics) else { return buses }
        for member in object.members {
            let p = path.key(member.key)
            let known = buses.firstIndex { $0.name == member.key }
            var bus = Bus(name: member.key, gain: known.map { buses[$0].gain } ?? 0)
            if case .object(let spec) = member.value.kind {
                readBusObject(spec, at: p, into: &bus)
            } else {
                // A bus with a bad gain still exists (at 0 dB), so its layers do not cascade errors.
                bus.gain = decibels(member.value, at: p) ?? 0
            }
            if let known { buses[known] = bus } else { buses.append(bus) }
        }
        return buses
    }

    /// `{ "gain": -18, "lowpass": 8000 }`: the gain (default: the default bus's, or 0 dB)
    /// and the effects (`DocumentEffect.all`), each in its range; effects keep document order.
    private mutating func readBusObject(_ spec: JSONObject, at p: JSONPath, into bus: inout Bus) {
        spec.warnUnknownKeysAsErrors(known: Set(["gain"] + DocumentEffect.keys), at: p, in: &diagnostics)
        if let g = spec["gain"] { bus.gain = decibels(g, at: p.key("gain")) ?? 0 }
        for member in spec.members {
            guard let effect = DocumentEffect.named(member.key) else { continue }
            // A wrong value (reported) still declares the effect, so its cues add no second error.
            let v = effectValue(member.value, effect, at: p.key(member.key)) ?? effect.range.upperBound
            bus.effects.append(Bus.Effect(key: effect.key, value: v))
        }
    }

    /// A number for `effect`, within its range, or a located error naming the range.
    mutating func effectValue(_ value: JSONValue, _ effect: DocumentEffect, at path: JSONPath) -> Double? {
        guard let v = value.number(at: path, in: &diagnostics) else { return nil }
        let range = effect.range
        guard range.contains(v) else {
            diagnostics.error("\(effect.key) \(value.excerpt) \(effect.unit) is outside \(NumberText.plain(range.lowerBound))…\(NumberText.plain(range.upperBound)) \(effect.unit)",
                              at: value.location, path: path, value: value.excerpt, rule: "session.effect-range")
            return nil
        }
        return v
    }
}
