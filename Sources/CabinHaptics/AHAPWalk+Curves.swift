import CabinJSON

extension AHAPWalk {
    /// Reads a `ParameterCurve`, converting Lofelt-style absolute point times to relative.
    ///
    /// Detection: the curve's `Time` t0 is > 0 and its first point's `Time` equals t0. Apple
    /// writes point times relative to the curve start (first point usually at 0); Lofelt's
    /// converter wrote absolute times. The warning says which reading was used;
    /// ``HapticReadOptions/CurveTimes`` forces one instead.
    mutating func readCurve(_ value: Int, _ path: @autoclosure () -> JSONPath) -> HapticParameterCurve? {
        guard let object = walker.object(value, path()) else { return nil }
        walker.warnUnknownKeys(object, known: Self.curveKeys, path())
        let doc = walker.doc
        let id = dynamicID(object, path())
        let start = walker.required("Time", in: object, path())
            .flatMap { walker.time($0, path().key("Time"), what: "Time") }
        func pointsPath() -> JSONPath { path().key("ParameterCurveControlPoints") }
        guard let pointsValue = walker.required("ParameterCurveControlPoints", in: object, path()),
              let items = doc.array(pointsValue, at: pointsPath(), in: &walker.diagnostics),
              let id, let start
        else { return nil }
        let itemCount = doc.count(items)
        if itemCount == 0 {
            walker.warn("ParameterCurve has no control points; ignored", at: pointsValue, path: pointsPath(),
                        rule: "empty-curve")
            return nil
        }
        if itemCount > walker.limits.maxControls {
            walker.error("\(itemCount) control points; the limit is \(walker.limits.maxControls)",
                         at: pointsValue, path: pointsPath(), rule: "limit")
            return nil
        }
        if itemCount > walker.limits.appleMaxControlPoints {
            walker.warn("\(itemCount) control points; Core Haptics plays at most "
                        + "\(walker.limits.appleMaxControlPoints) per curve (all are used here)",
                        at: pointsValue, path: pointsPath(), rule: "too-many-points")
        }
        var points: [HapticControlPoint] = []
        points.reserveCapacity(itemCount)
        var pointValues: [Int] = []
        pointValues.reserveCapacity(itemCount)
        for (index, item) in doc.elements(items).enumerated() {
            func pointPath() -> JSONPath { pointsPath().index(index) }
            guard let point = walker.object(item, pointPath()) else { continue }
            walker.warnUnknownKeys(point, known: Self.pointKeys, pointPath())
            let time = walker.required("Time", in: point, pointPath())
                .flatMap { walker.time($0, pointPath().key("Time"), what: "Time") }
            let v = walker.required("ParameterValue", in: point, pointPath())
                .flatMap { walker.clamped($0, to: id.range, name: id.rawValue, pointPath().key("ParameterValue")) }
            if let time, let v {
                points.append(HapticControlPoint(time: time, value: v))
                pointValues.append(item)
            }
        }
        guard !points.isEmpty else { return nil }
        switch curveTimes {
        case .auto where start > 0 && points[0].time == start:
            walker.warn("control-point times read as absolute (Lofelt style): the first point's Time equals the "
                        + "curve's Time \(DocumentWalker.format(start)); Apple's relative reading would start it at "
                        + "\(DocumentWalker.format(2 * start)) s (choose with --curve-times relative|absolute)",
                        at: doc.member(pointValues[0], "Time") ?? pointValues[0], path: pointsPath().index(0).key("Time"),
                        rule: "absolute-curve-times")
            points = points.map { HapticControlPoint(time: max(0, $0.time - start), value: $0.value) }
        case .absolute:
            if let early = points.firstIndex(where: { $0.time < start }) {
                walker.warn("control point at \(DocumentWalker.format(points[early].time)) s is before the curve's Time "
                            + "\(DocumentWalker.format(start)) (curve times read as absolute); read as the curve's start",
                            at: doc.member(pointValues[early], "Time") ?? pointValues[early],
                            path: pointsPath().index(early).key("Time"), rule: "point-before-curve")
            }
            points = points.map { HapticControlPoint(time: max(0, $0.time - start), value: $0.value) }
        case .auto, .relative:
            break
        }
        if let bad = points.indices.dropLast().first(where: { points[$0 + 1].time < points[$0].time }) {
            walker.warn("control points are not in time order; sorted by time", at: pointValues[bad + 1],
                        path: pointsPath().index(bad + 1), rule: "unsorted-points")
            points = points.stableSorted { $0.time < $1.time }
        }
        if start + (points.last?.time ?? 0) > walker.limits.maxTime {
            walker.error("curve ends at \(DocumentWalker.format(start + points.last!.time)) s, beyond the limit of "
                         + "\(DocumentWalker.format(walker.limits.maxTime)) s", at: value, path: path(), rule: "limit")
            return nil
        }
        return HapticParameterCurve(id, time: start, controlPoints: points)
    }
}
