import CabinAudio
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
    /// and the effects (`DocumentEffect.all`), each parameter in its range; effects keep
    /// document order.
    private mutating func readBusObject(_ spec: JSONObject, at p: JSONPath, into bus: inout Bus) {
        spec.warnUnknownKeysAsErrors(known: Set(["gain"] + DocumentEffect.keys), at: p, in: &diagnostics)
        if let g = spec["gain"] { bus.gain = decibels(g, at: p.key("gain")) ?? 0 }
        for member in spec.members {
            guard let effect = DocumentEffect.named(member.key) else { continue }
            // A wrong value (reported) still declares the effect, so its cues add no second error.
            bus.effects.append(Bus.Effect(key: effect.key, values: effectValues(member.value, effect, at: p.key(member.key))))
        }
    }

    /// An effect's parameter values: a number (or, for a duration, a time) for its main
    /// parameter (`"lowpass": 8000`), or an object of named parameters
    /// (`"compressor": { "threshold": -20, "attack": "5ms" }`); parameters not given, and
    /// wrong ones (each reported), at their defaults.
    mutating func effectValues(_ value: JSONValue, _ effect: BusEffectDeclaration, at path: JSONPath) -> [Double] {
        var values = effect.defaults
        guard case .object(let spec) = value.kind else {
            let main = effect.mainParameter
            var isShorthand = false
            switch value.kind {
            case .number: isShorthand = true
            case .string: isShorthand = main.unit == .seconds
            default: break
            }
            if !isShorthand {
                let unit = main.unit == .ratio ? "" : main.unit == .seconds ? " (a time)" : " in \(main.unit.rawValue)"
                value.mismatch("a number (\(effect.key)'s \(main.name)\(unit)) or an object of its parameters (\(Self.parameterList(effect)))",
                               at: path, in: &diagnostics)
            } else if let v = parameterValue(value, effect, effect.main, at: path, named: false) {
                values[effect.main] = v
            }
            return values
        }
        var found = Diagnostics(file: diagnostics.file)
        spec.warnUnknownKeys(known: Set(effect.parameters.map(\.name)), at: path, rule: "session.unknown-key", in: &found,
                             note: "is not a parameter of \(effect.key) (\(Self.parameterList(effect)))")
        diagnostics.append(contentsOf: found.all.map { $0.escalated() })
        for (i, parameter) in effect.parameters.enumerated() {
            guard let v = spec[parameter.name] else { continue }
            if let x = parameterValue(v, effect, i, at: path.key(parameter.name), named: true) { values[i] = x }
        }
        return values
    }

    /// A value for parameter `index` of `effect` in its unit (a duration: seconds or a time
    /// such as `"5ms"`), within its range, or a located error naming the range. `named`:
    /// the message names the parameter (`compressor ratio 50 is outside 1…20`), else the
    /// effect alone (`lowpass 30000 Hz is outside 20…20000 Hz`).
    mutating func parameterValue(_ value: JSONValue, _ effect: BusEffectDeclaration, _ index: Int, at path: JSONPath,
                                 named: Bool) -> Double? {
        let parameter = effect.parameters[index]
        let v: Double?
        if parameter.unit == .seconds {
            v = time(value, at: path)
        } else {
            v = value.number(at: path, in: &diagnostics)
        }
        guard let v else { return nil }
        let range = parameter.range
        guard range.contains(v) else {
            let what = named ? "\(effect.key) \(parameter.name)" : effect.key
            let shown = parameter.unit == .seconds
                ? "\(value.excerpt) is outside \(Self.duration(range.lowerBound))…\(Self.duration(range.upperBound))"
                : "\(value.excerpt)\(Self.unitSuffix(parameter)) is outside \(NumberText.plain(range.lowerBound))…\(NumberText.plain(range.upperBound))\(Self.unitSuffix(parameter))"
            diagnostics.error("\(what) \(shown)", at: value.location, path: path, value: value.excerpt, rule: "session.effect-range")
            return nil
        }
        return v
    }

    /// ` Hz`, ` dB`, or nothing for a ratio.
    static func unitSuffix(_ parameter: EffectParameter) -> String {
        parameter.unit.rawValue.isEmpty || parameter.unit == .seconds ? "" : " " + parameter.unit.rawValue
    }

    /// A duration as messages and documents write it: `5ms`, `0.1ms`, `1.5s`.
    static func duration(_ seconds: Double) -> String {
        seconds > 0 && seconds < 1 ? NumberText.plain((seconds * 1e6).rounded() / 1000) + "ms" : SessionTime.format(seconds)
    }

    /// `threshold, ratio, attack, …`.
    static func parameterList(_ effect: BusEffectDeclaration) -> String { effect.parameters.map(\.name).joined(separator: ", ") }
}
