import CabinJSON

extension LofeltWalk {
    /// Reads an amplitude or frequency envelope: a non-empty array of `{time, <valueKey>}`
    /// (amplitude points may carry `emphasis`), values clamped to 0…1, sorted by time.
    mutating func readBreakpoints(_ value: Int, _ path: @autoclosure () -> JSONPath, valueKey: String) -> [Breakpoint]? {
        let doc = walker.doc
        guard let items = doc.array(value, at: path(), in: &walker.diagnostics) else { return nil }
        let itemCount = doc.count(items)
        if itemCount == 0 {
            walker.error("the \(valueKey) envelope is empty; it needs at least one breakpoint", at: value,
                         path: path(), rule: "empty-envelope")
            return nil
        }
        if itemCount > walker.limits.maxControls {
            walker.error("\(itemCount) breakpoints; the limit is \(walker.limits.maxControls)", at: value,
                         path: path(), rule: "limit")
            return nil
        }
        let known = valueKey == "amplitude" ? Self.amplitudePointKeys : Self.frequencyPointKeys
        var result: [Breakpoint] = []
        result.reserveCapacity(itemCount)
        var warnedUnsorted = false
        for (index, item) in doc.elements(items).enumerated() {
            func itemPath() -> JSONPath { path().index(index) }
            guard let object = walker.object(item, itemPath()) else { continue }
            walker.warnUnknownKeys(object, known: known, itemPath())
            let time = walker.required("time", in: object, itemPath())
                .flatMap { walker.time($0, itemPath().key("time")) }
            let v = walker.required(valueKey, in: object, itemPath())
                .flatMap { walker.clamped($0, to: 0...1, name: valueKey, itemPath().key(valueKey)) }
            var emphasis: (Double, Double)?
            if let emphasisValue = doc.member(object, "emphasis") {
                emphasis = readEmphasis(emphasisValue, itemPath().key("emphasis"))
            }
            guard let time, let v else { continue }
            if let emphasis, emphasis.0 < v, let node = doc.member(object, "emphasis").flatMap({ doc.member($0, "amplitude") }) {
                walker.warn("emphasis amplitude \(DocumentWalker.format(emphasis.0)) is below its breakpoint's amplitude "
                            + "\(DocumentWalker.format(v)): the click is weaker than the texture it should stand out of",
                            at: node, path: itemPath().key("emphasis").key("amplitude"), rule: "emphasis-below-envelope")
            }
            if !warnedUnsorted, let previous = result.last, time < previous.time {
                warnedUnsorted = true
                walker.warn("breakpoint times must ascend (\(DocumentWalker.format(time)) s follows "
                            + "\(DocumentWalker.format(previous.time)) s); sorted by time", at: doc.member(object, "time") ?? item,
                            path: itemPath().key("time"), rule: "unsorted-breakpoints")
            }
            result.append(Breakpoint(time: time, value: v, emphasis: emphasis))
        }
        return result.stableSorted { $0.time < $1.time }
    }

    private mutating func readEmphasis(_ value: Int, _ path: @autoclosure () -> JSONPath) -> (Double, Double)? {
        guard let object = walker.object(value, path()) else { return nil }
        walker.warnUnknownKeys(object, known: Self.emphasisKeys, path())
        let amplitude = walker.required("amplitude", in: object, path())
            .flatMap { walker.clamped($0, to: 0...1, name: "emphasis amplitude", path().key("amplitude")) }
        let frequency = walker.required("frequency", in: object, path())
            .flatMap { walker.clamped($0, to: 0...1, name: "emphasis frequency", path().key("frequency")) }
        guard let amplitude, let frequency else { return nil }
        return (amplitude, frequency)
    }
}

/// The `.haptic` → pattern mapping described on ``LofeltHapticReader``.
enum LofeltMapping {
    /// The continuous intensity's share at a breakpoint with emphasis (Lofelt's 0.2 ducking).
    static let emphasisDucking = 0.8

    static func pattern(
        amplitude: [LofeltWalk.Breakpoint], frequency: [LofeltWalk.Breakpoint]?, version: Double?,
        maxContinuousDuration: Double
    ) -> HapticPattern {
        var events: [HapticEvent] = []
        // Under an emphasis the continuous intensity is ducked (Lofelt's converter: × 0.8), so the
        // click stands out of the texture it sits on.
        let intensity = PiecewiseLinear(
            amplitude.map {
                HapticControlPoint(time: $0.time, value: $0.value.squareRoot() * ($0.emphasis == nil ? 1 : emphasisDucking))
            }, outside: .hold)
        let sharpness = frequency.map {
            PiecewiseLinear($0.map { HapticControlPoint(time: $0.time, value: $0.value.squareRoot()) }, outside: .hold)
        }
        if let first = amplitude.first?.time, let last = amplitude.last?.time, last > first {
            var start = first
            while start < last {
                let end = min(last, start + maxContinuousDuration)
                var event = HapticEvent(.hapticContinuous, time: start, duration: end - start,
                                        parameters: [.hapticIntensity: 1])
                event.intensityEnvelope = intensity.slice(from: start, to: end)
                event.sharpnessEnvelope = sharpness?.slice(from: start, to: end)
                events.append(event)
                start = end
            }
        }
        for point in amplitude {
            guard let emphasis = point.emphasis else { continue }
            events.append(HapticEvent(.hapticTransient, time: point.time, parameters: [
                .hapticIntensity: emphasis.amplitude.squareRoot(),
                .hapticSharpness: emphasis.frequency,
            ]))
        }
        return HapticPattern(version: version, events: events.stableSorted { $0.time < $1.time })
    }
}
