import CabinAudio
import CabinJSON

/// Parameters, layers and ducking rules (buses: `DocumentReader+Buses.swift`).
extension DocumentReader {
    mutating func readParameters(_ value: JSONValue?) -> [Parameter] {
        guard let value else { return [] }
        let path = JSONPath.root.key("parameters")
        guard let object = value.object(at: path, in: &diagnostics) else { return [] }
        var out: [Parameter] = []
        for member in object.members {
            let p = path.key(member.key)
            guard let spec = member.value.object(at: p, in: &diagnostics) else { continue }
            spec.warnUnknownKeysAsErrors(known: ["value", "min", "max"], at: p, in: &diagnostics)
            let bound = -Self.parameterBound...Self.parameterBound
            func bounded(_ key: String) -> Double? {
                spec[key].flatMap { number($0, at: p.key(key), in: bound, what: key, rule: "session.parameter-range") }
            }
            let errorsBefore = diagnostics.errors.count
            let v = bounded("value") ?? 0
            var lo = bounded("min") ?? min(0, v)
            var hi = bounded("max") ?? max(1, v)
            // A range already reported as wrong does not judge the cues that set it again.
            if diagnostics.errors.count > errorsBefore { (lo, hi) = (-.infinity, .infinity) }
            if lo >= hi {
                diagnostics.error("min (\(SessionTime.format(number: lo))) must be below max (\(SessionTime.format(number: hi)))",
                                  at: member.value.location, path: p, rule: "session.parameter-range")
            } else if v < lo || v > hi {
                diagnostics.error("value \(SessionTime.format(number: v)) is outside \(SessionTime.format(number: lo))…\(SessionTime.format(number: hi))",
                                  at: spec["value"]?.location ?? member.value.location, path: p.key("value"),
                                  value: SessionTime.format(number: v), rule: "session.parameter-range")
            }
            out.append(Parameter(name: member.key, value: v, min: lo, max: hi))
        }
        return out
    }

    static let layerKeys: Set<String> = ["bus", "sound", "loop", "gain", "normalize", "pitch", "gainMap", "scatter", "playlist"]

    mutating func readLayers(_ value: JSONValue?, buses: [Bus], parameters: [Parameter]) -> [Layer] {
        guard let value else { return [] }
        let path = JSONPath.root.key("layers")
        guard let object = value.object(at: path, in: &diagnostics) else { return [] }
        var out: [Layer] = []
        for member in object.members {
            let p = path.key(member.key)
            guard let spec = member.value.object(at: p, in: &diagnostics) else { continue }
            if spec["haptic"] != nil {
                if let layer = readHapticLayer(member.key, spec, at: p, parameters: parameters) { hapticLayers.append(layer) }
                continue
            }
            spec.warnUnknownKeysAsErrors(known: Self.layerKeys, at: p, in: &diagnostics)
            let busValue = spec["bus"]
            var bus = member.key
            if let busValue, let name = busValue.string(at: p.key("bus"), in: &diagnostics) {
                bus = name
                _ = reference(name, busValue, at: p.key("bus"), kind: "bus", known: buses.map(\.name))
            } else if busValue == nil && !buses.contains(where: { $0.name == member.key }) {
                diagnostics.error("layer \"\(member.key)\" needs a \"bus\" (no bus has its name); buses: \(buses.map(\.name).joined(separator: ", "))",
                                  at: member.value.location, path: p, rule: "json.missing-key")
            }
            var scatter: Scatter?
            var sound: SoundReference?
            if let scatterValue = spec["scatter"] {
                scatter = readScatter(scatterValue, at: p.key("scatter"))
                sound = scatter?.sounds.first
                if let extra = spec["sound"] {
                    diagnostics.error("a layer plays a \"sound\" or a \"scatter\", not both", at: extra.location,
                                      path: p.key("sound"), value: extra.excerpt, rule: "session.scatter")
                }
            } else {
                let soundValue = spec.required("sound", at: p.key("sound"), objectLocation: member.value.location, in: &diagnostics)
                sound = soundValue.flatMap { self.sound($0, at: p.key("sound")) }
            }
            let loop = spec["loop"]?.bool(at: p.key("loop"), in: &diagnostics) ?? false
            let gain = spec["gain"].flatMap { decibels($0, at: p.key("gain")) } ?? 0
            let normalize = spec["normalize"]?.bool(at: p.key("normalize"), in: &diagnostics) ?? true
            let pitch = spec["pitch"].flatMap { parameterMap($0, at: p.key("pitch"), parameters: parameters, output: .ratio) }
            let gainMap = spec["gainMap"].flatMap { parameterMap($0, at: p.key("gainMap"), parameters: parameters, output: .decibels) }
            var playlist: PlaylistOptions?
            if let playlistValue = spec["playlist"] {
                playlist = readPlaylistOptions(playlistValue, at: p.key("playlist"))
                if let sound, case .playlist = sound {} else if sound != nil {
                    diagnostics.error("\"playlist\" options go with a playlist sound (a folder ending in / or an .m3u, .m3u8 or .pls file)",
                                      at: playlistValue.location, path: p.key("playlist"), value: playlistValue.excerpt,
                                      rule: "session.playlist")
                }
            }
            if let sound {
                out.append(Layer(name: member.key, bus: bus, sound: sound, isLooping: loop, gain: gain,
                                 normalize: normalize, pitch: pitch, gainMap: gainMap, scatter: scatter, playlist: playlist))
            }
        }
        return out
    }

    /// A layer with `"haptic"`: a pattern, `loop`, and `intensity`/`sharpness` maps; the keys
    /// of sound layers are errors that say so.
    mutating func readHapticLayer(_ name: String, _ spec: JSONObject, at p: JSONPath, parameters: [Parameter]) -> HapticLayer? {
        for member in spec.members where !HapticLayer.keys.contains(member.key) {
            if Self.layerKeys.contains(member.key) {
                diagnostics.error("\"\(member.key)\" belongs to sound layers; a haptic layer has \(HapticLayer.keys.joined(separator: ", "))",
                                  at: member.keyLocation, path: p.key(member.key), value: member.value.excerpt, rule: "session.haptic-layer")
            } else {
                spec.warnUnknownKeysAsErrors(known: Set(HapticLayer.keys), at: p, in: &diagnostics)
                break
            }
        }
        let errorsBefore = diagnostics.errors.count
        guard let value = spec["haptic"] else { return nil }  // read only for a layer that has one
        var pattern: String?
        if let text = value.string(at: p.key("haptic"), in: &diagnostics) {
            pattern = hapticReference(text, value, at: p.key("haptic"))
        }
        let loop = spec["loop"]?.bool(at: p.key("loop"), in: &diagnostics) ?? false
        let intensity = spec["intensity"].flatMap { parameterMap($0, at: p.key("intensity"), parameters: parameters, output: .intensity) }
        let sharpness = spec["sharpness"].flatMap { parameterMap($0, at: p.key("sharpness"), parameters: parameters, output: .sharpness) }
        guard let pattern, diagnostics.errors.count == errorsBefore else { return nil }
        return HapticLayer(name: name, pattern: pattern, isLooping: loop, intensity: intensity, sharpness: sharpness)
    }

    /// A `haptic` text (cue, layer or crossfade target): parsed and checked against the
    /// libraries when the caller gave checks; nil (with the error) when it cannot play.
    mutating func hapticReference(_ text: String, _ value: JSONValue, at path: JSONPath) -> String? {
        switch HapticReference.parse(text) {
        case .success(let reference):
            if let why = references?.haptic(reference) {
                diagnostics.error(why, at: value.location, path: path, value: value.excerpt, rule: "session.missing-pattern")
                return nil
            }
            return text
        case .failure(let problem):
            diagnostics.error(problem.message, at: value.location, path: path, value: value.excerpt, rule: problem.rule)
            return nil
        }
    }

    /// `{ "sounds": ["ui/horn", …], "rate": [1, 4], "gain": [-12, 0], "pan": [-0.8, 0.8], "pitch": [-2, 2] }`:
    /// library names or files (not `synth:`), events a minute, dB, pan and semitones, each
    /// a `[low, high]` pair (or one number for both).
    mutating func readScatter(_ value: JSONValue, at path: JSONPath) -> Scatter? {
        guard let object = value.object(at: path, in: &diagnostics) else { return nil }
        object.warnUnknownKeysAsErrors(known: ["sounds", "rate", "gain", "pan", "pitch", "spacing"], at: path, in: &diagnostics)
        var sounds: [SoundReference] = []
        if let list = object.required("sounds", at: path.key("sounds"), objectLocation: value.location, in: &diagnostics),
           let rows = list.array(at: path.key("sounds"), in: &diagnostics) {
            if rows.isEmpty || rows.count > Scatter.maximumSounds {
                diagnostics.error("a scatter needs 1 to \(Scatter.maximumSounds) sounds, found \(rows.count)", at: list.location,
                                  path: path.key("sounds"), value: list.excerpt, rule: "session.scatter")
            }
            for (i, row) in rows.enumerated() {
                guard let r = sound(row, at: path.key("sounds").index(i)) else { continue }
                if case .synth = r {
                    diagnostics.error("a scatter plays sound files, not synth: sources", at: row.location,
                                      path: path.key("sounds").index(i), value: row.excerpt, rule: "session.scatter")
                    continue
                }
                sounds.append(r)
            }
        }
        let rate = object.required("rate", at: path.key("rate"), objectLocation: value.location, in: &diagnostics)
            .flatMap { range($0, at: path.key("rate"), in: Scatter.rateRange, what: "a rate (events a minute)") }
        let gain = object["gain"].map { range($0, at: path.key("gain"), in: -120...24, what: "a gain (dB)") } ?? (0...0)
        let pan = object["pan"].map { range($0, at: path.key("pan"), in: Scatter.panRange, what: "a pan") } ?? (0...0)
        let pitch = object["pitch"].map { range($0, at: path.key("pitch"), in: Scatter.pitchRange, what: "a pitch (semitones)") } ?? (0...0)
        var spacing: ScatterConfig.Spacing? = .random
        if let v = object["spacing"] {
            spacing = nil
            if let text = v.string(at: path.key("spacing"), in: &diagnostics) {
                spacing = ScatterConfig.Spacing(rawValue: text)
                if spacing == nil {
                    diagnostics.error("a scatter's spacing is \"random\" or \"even\", not \"\(text)\"", at: v.location,
                                      path: path.key("spacing"), value: v.excerpt, rule: "session.scatter")
                }
            }
        }
        guard let rate, let gain, let pan, let pitch, let spacing, !sounds.isEmpty else { return nil }
        return Scatter(sounds: sounds, rate: rate, gain: gain, pan: pan, pitch: pitch, spacing: spacing)
    }

    /// `[low, high]` (low ≤ high) or one number, each within `bounds`.
    mutating func range(_ value: JSONValue, at path: JSONPath, in bounds: ClosedRange<Double>, what: String) -> ClosedRange<Double>? {
        if case .number = value.kind {
            return number(value, at: path, in: bounds, what: what, rule: "session.scatter").map { $0...$0 }
        }
        guard let pair = value.array(at: path, in: &diagnostics) else { return nil }
        guard pair.count == 2 else {
            diagnostics.error("a range is [low, high], found \(pair.count) numbers", at: value.location, path: path,
                              value: value.excerpt, rule: "session.scatter")
            return nil
        }
        guard let lo = number(pair[0], at: path.index(0), in: bounds, what: what, rule: "session.scatter"),
              let hi = number(pair[1], at: path.index(1), in: bounds, what: what, rule: "session.scatter") else { return nil }
        guard lo <= hi else {
            diagnostics.error("a range's low end (\(NumberText.plain(lo))) must not be above its high end (\(NumberText.plain(hi)))",
                              at: value.location, path: path, value: value.excerpt, rule: "session.scatter")
            return nil
        }
        return lo...hi
    }

    enum MapOutput {
        case ratio, decibels, intensity, sharpness

        var name: String {
            switch self {
            case .ratio: "ratio"
            case .decibels: "dB"
            case .intensity: "intensity factor"
            case .sharpness: "sharpness offset"
            }
        }
    }

    /// `{ "parameter": "speed", "map": [[0, 0.7], [80, 1.4]] }`.
    mutating func parameterMap(_ value: JSONValue, at path: JSONPath, parameters: [Parameter],
                               output: MapOutput) -> LayerMap? {
        guard let object = value.object(at: path, in: &diagnostics) else { return nil }
        object.warnUnknownKeysAsErrors(known: ["parameter", "map"], at: path, in: &diagnostics)
        guard let nameValue = object.required("parameter", at: path.key("parameter"), objectLocation: value.location, in: &diagnostics),
              let name = nameValue.string(at: path.key("parameter"), in: &diagnostics),
              reference(name, nameValue, at: path.key("parameter"), kind: "parameter", known: parameters.map(\.name)),
              let mapValue = object.required("map", at: path.key("map"), objectLocation: value.location, in: &diagnostics),
              let rows = mapValue.array(at: path.key("map"), in: &diagnostics) else { return nil }
        var points: [(Double, Double)] = []
        for (i, row) in rows.enumerated() {
            let rp = path.key("map").index(i)
            guard let pair = row.array(at: rp, in: &diagnostics) else { continue }
            guard pair.count == 2,
                  let x = number(pair[0], at: rp.index(0), in: -Self.parameterBound...Self.parameterBound,
                                 what: "parameter value", rule: "session.map"),
                  let y = mapOutput(pair[1], at: rp.index(1), output) else {
                if pair.count != 2 {
                    diagnostics.error("a map point is [parameterValue, \(output.name)], found \(pair.count) numbers",
                                      at: row.location, path: rp, value: row.excerpt, rule: "session.map")
                }
                continue
            }
            if let last = points.last, x <= last.0 {
                diagnostics.error("map points must rise in parameter value: \(SessionTime.format(number: x)) follows \(SessionTime.format(number: last.0))",
                                  at: pair[0].location, path: rp.index(0), value: pair[0].excerpt, rule: "session.map")
            }
            if output == .ratio && !(y > 0 && y <= 8) {
                diagnostics.error("a pitch ratio must be above 0 and at most 8, found \(pair[1].excerpt)",
                                  at: pair[1].location, path: rp.index(1), value: pair[1].excerpt, rule: "session.map")
            }
            points.append((x, y))
        }
        if points.isEmpty {
            // (Points that were there were reported one by one.)
            if rows.isEmpty {
                diagnostics.error("a map needs at least one point", at: mapValue.location, path: path.key("map"), rule: "session.map")
            }
            return nil
        }
        return LayerMap(parameter: name, points: points)
    }

    /// One map point's output, range-checked for its kind.
    private mutating func mapOutput(_ value: JSONValue, at path: JSONPath, _ output: MapOutput) -> Double? {
        switch output {
        case .ratio: value.number(at: path, in: &diagnostics)
        case .decibels: decibels(value, at: path)
        case .intensity: number(value, at: path, in: HapticLayer.intensityRange, what: "an intensity factor", rule: "session.map")
        case .sharpness: number(value, at: path, in: HapticLayer.sharpnessRange, what: "a sharpness offset", rule: "session.map")
        }
    }

    mutating func readDucking(_ value: JSONValue?, buses: [Bus]) -> [Ducking] {
        guard let value else { return [] }
        let path = JSONPath.root.key("ducking")
        guard let rows = value.array(at: path, in: &diagnostics) else { return [] }
        var out: [Ducking] = []
        let busNames = buses.map(\.name)
        for (i, row) in rows.enumerated() {
            let p = path.index(i)
            guard let rule = row.object(at: p, in: &diagnostics) else { continue }
            rule.warnUnknownKeysAsErrors(known: ["when", "duck", "by", "attack", "release", "band"], at: p, in: &diagnostics)
            var when: String?
            if let w = rule.required("when", at: p.key("when"), objectLocation: row.location, in: &diagnostics),
               let name = w.string(at: p.key("when"), in: &diagnostics),
               reference(name, w, at: p.key("when"), kind: "bus", known: busNames) { when = name }
            var ducked: [String] = []
            if let d = rule.required("duck", at: p.key("duck"), objectLocation: row.location, in: &diagnostics) {
                for (name, v, np) in names(d, at: p.key("duck"))
                where reference(name, v, at: np, kind: "bus", known: busNames) { ducked.append(name) }
            }
            let by = rule["by"].flatMap { decibels($0, at: p.key("by")) } ?? Ducking.defaultDepth
            if by > 0, let v = rule["by"] {
                diagnostics.error("ducking lowers buses: \"by\" must be 0 dB or less, found \(v.excerpt)",
                                  at: v.location, path: p.key("by"), value: v.excerpt, rule: "session.ducking")
            }
            let attack = rule["attack"].flatMap { time($0, at: p.key("attack")) } ?? 0.04
            let release = rule["release"].flatMap { time($0, at: p.key("release")) } ?? 0.6
            let band = rule["band"].flatMap { readDuckingBand($0, at: p.key("band")) }
            if let when, when != "" {
                out.append(Ducking(when: when, duck: ducked, by: by, attack: attack, release: release, band: band))
            }
        }
        return out
    }
}

extension DocumentReader {
    /// A ducking rule's `"band": [150, 4000]`: two frequencies in Hz, 20…20,000, the lower
    /// first and at least a tenth apart.
    mutating func readDuckingBand(_ value: JSONValue, at path: JSONPath) -> ClosedRange<Double>? {
        guard let pair = value.array(at: path, in: &diagnostics) else { return nil }
        guard pair.count == 2 else {
            diagnostics.error("a band is two frequencies in Hz, [low, high] (e.g. [150, 4000]), found \(value.excerpt)",
                              at: value.location, path: path, value: value.excerpt, rule: "session.ducking")
            return nil
        }
        guard let low = number(pair[0], at: path.index(0), in: Ducking.bandRange, what: "a band's frequency (Hz)", rule: "session.ducking"),
              let high = number(pair[1], at: path.index(1), in: Ducking.bandRange, what: "a band's frequency (Hz)", rule: "session.ducking")
        else { return nil }
        guard high >= low * 1.1 else {
            diagnostics.error("a band's high frequency must be at least 1.1 × its low one (\(NumberText.plain(low)) Hz), found \(pair[1].excerpt)",
                              at: pair[1].location, path: path.index(1), value: pair[1].excerpt, rule: "session.ducking")
            return nil
        }
        return low...high
    }

    /// A layer's `"playlist": { "shuffle": true, "crossfade": "4s", "replayGain": "album" }`.
    mutating func readPlaylistOptions(_ value: JSONValue, at path: JSONPath) -> PlaylistOptions? {
        guard let object = value.object(at: path, in: &diagnostics) else { return nil }
        object.warnUnknownKeysAsErrors(known: ["shuffle", "crossfade", "replayGain"], at: path, in: &diagnostics)
        var options = PlaylistOptions()
        if let shuffle = object["shuffle"]?.bool(at: path.key("shuffle"), in: &diagnostics) { options.shuffle = shuffle }
        if let fade = object["crossfade"], let seconds = time(fade, at: path.key("crossfade")) {
            if seconds > PlaylistOptions.maximumCrossfadeSeconds {
                diagnostics.error("a crossfade between tracks is at most \(NumberText.plain(PlaylistOptions.maximumCrossfadeSeconds)) s, not \(fade.excerpt)",
                                  at: fade.location, path: path.key("crossfade"), value: fade.excerpt, rule: "session.playlist")
            } else {
                options.crossfadeSeconds = seconds
            }
        }
        if let mode = object["replayGain"], let text = mode.string(at: path.key("replayGain"), in: &diagnostics) {
            if let m = PlaylistOptions.GainMode(rawValue: text) {
                options.gainMode = m
            } else {
                diagnostics.error("replayGain is \"track\" or \"album\", not \(mode.excerpt)", at: mode.location,
                                  path: path.key("replayGain"), value: mode.excerpt, rule: "session.playlist")
            }
        }
        return options
    }
}
