/// `ambient`: one sound for a while, with a fade-in and a long fade-out at the end.
enum AmbientPreset {
    static let preset = SessionPresets.Preset(
        name: "ambient", summary: "one ambience or binaural beat for N minutes, faded in and out",
        options: [
            .init(name: "minutes", defaultValue: "30", help: "1–480"),
            .init(name: "sound", defaultValue: "ambient/rain", help: "an ambient/… or radio/… library name, or synth:binaural"),
            .init(name: "beat", defaultValue: "10", help: "binaural beat in Hz (with synth:binaural), 1–40"),
            .init(name: "carrier", defaultValue: "200", help: "binaural carrier in Hz, 60–1000"),
        ],
        make: { (o) throws(PresetError) -> SessionDocument in try make(o) })

    static func make(_ o: PresetOptions) throws(PresetError) -> SessionDocument {
        let minutes = try o.minutes("minutes", in: 1...480)
        let total = Double(minutes * 60)
        let name = o.raw("sound")
        var sound: SoundReference
        switch SoundReferenceParser.parse(name) {
        case .success(.synth(let synth)) where synth.name == "binaural":
            let beat = try o.number("beat", in: 1...40), carrier = try o.number("carrier", in: 60...1000)
            sound = .synth(.binaural(carrier: carrier, beat: beat))
        case .success(let r): sound = r
        case .failure(let p): throw PresetError("\(option: "sound"): \(p.message)")
        }
        let fadeOut = min(120, max(10, total / 5))
        var b = SessionBuilder(title: "Ambient: \(name) for \(minutes) min", duration: total)
        let isTone = name.hasPrefix("synth:binaural") || name.hasPrefix("synth:sine")
        // One bed and no cues: the bus passes it as it is (the master gain sets the level).
        b.setBus("ambient", gain: 0)
        b.document.layers = [Layer(name: "ambient", bus: "ambient", sound: sound, isLooping: true, gain: isTone ? -6 : 0)]
        var layers = ["ambient"]
        if case .library = sound {
            // The loop a little under, and pieces of it scattered over it: nothing repeats.
            b.document.layers[0].gain = SessionBuilder.variationLoopGain
            layers.append(b.addVariation(of: sound, on: "ambient", named: "ambient"))
            b.addDrift(to: "ambient", from: 0, to: total, seed: 0xA3B1)
        }
        b.start(0, layers, fadeIn: min(10, total / 4))
        if layers.count > 1 { b.settleVariation(of: "ambient", startedAt: 0) }
        b.stop(total - fadeOut, layers, fadeOut: fadeOut)
        b.mark(total - fadeOut, "fade-out", title: "fading out")
        return b.build()
    }
}
