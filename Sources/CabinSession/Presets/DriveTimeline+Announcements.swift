
extension DriveTimeline {
    /// GPS-style announcements placed by miles driven: halfway, 5 miles before each rest
    /// stop, every 10 miles, and approaching the destination. They keep 30 s apart, and
    /// never fall while the car is stopped.
    mutating func announce(rests: [Double]) {
        let track = speed.track(until: total)
        let totalMiles = track.miles(until: total)
        let arrivalMiles = totalMiles - track.miles(until: arrivalStart)
        say(arrivalStart + 1, "Approaching \(s.destination) — \(Self.milesText(arrivalMiles)) to go",
            fallback: "voice/approaching-destination", gain: roadCueGain)
        for rest in rests {
            let milesThere = track.miles(until: rest)
            if milesThere > 6, let t = track.time(atMiles: milesThere - 5, limit: rest), isMoving(t) {
                say(t, "Rest stop in 5 miles", fallback: "voice/rest-stop-5-miles", gain: roadCueGain)
            }
        }
        if totalMiles >= 4, let t = track.time(atMiles: totalMiles / 2, limit: total), isMoving(t), isClear(t) {
            say(t, "Halfway to \(s.destination)", fallback: s.destination == "your destination" ? "voice/halfway" : nil, gain: roadCueGain)
            b.play(t - 1.5, "ui/chime-milestone", gain: Self.milestoneGain + roadCueGain, haptic: "milestone")
        }
        var mile = 10.0
        while mile < totalMiles - 2 {
            if let t = track.time(atMiles: mile, limit: arrivalStart), isMoving(t), isClear(t) {
                b.play(t - 1.5, "ui/chime-milestone", gain: Self.milestoneGain + roadCueGain, haptic: "milestone")
                say(t, "\(Int(mile)) miles driven — great progress!", fallback: mile == 10 ? "voice/10-miles-driven" : nil, gain: roadCueGain)
            }
            mile += 10
        }
    }

    /// Speech with a stored fallback, remembered so announcements keep apart.
    mutating func say(_ t: Double, _ text: String, fallback: String?, gain: Double = 0) {
        b.say(t, text, fallback: fallback, gain: gain)
        spoken.append(t)
    }

    /// The road's chimes and announcements 2 dB down for the electric car with the radio off:
    /// the bed they land on is then its motor (8 dB under the V6) and the ambience alone, and
    /// the milestone chime stood +11.8 LU over it (`cabin session levels --preset drive --radio
    /// off --vehicle electric`); a combustion engine's bed carries them (the diesel's chime
    /// +3.8 LU, the V6's +4.7, chimes needing +2).
    var roadCueGain: Double { s.radio == nil && engine.isElectric ? -2 : 0 }

    func isMoving(_ t: Double) -> Bool { speed.speed(at: t) > 10 }
    func isClear(_ t: Double) -> Bool { spoken.allSatisfy { abs($0 - t) > 30 } }

    static func milesText(_ miles: Double) -> String {
        if miles < 0.75 { return "half a mile" }
        if miles < 1.5 { return "1 mile" }
        return "\(Int(miles.rounded())) miles"
    }
}
