import CabinJSON
import Glibc

extension SoundManifest {
    /// The manifest as JSON text, in the shape `read` accepts, with its entries in order.
    /// Numbers are rounded to what a listener or the loader can use (0.01 dB, 0.001 s), so
    /// regenerating an unchanged library rewrites the same text.
    ///
    /// Thread: pure; any thread.
    public func serialized() -> String {
        var sounds: [(String, JSONValue)] = []
        for e in self.sounds {
            var members: [(String, JSONValue)] = [("file", .string(e.file)), ("category", .string(e.category))]
            if let start = e.loopStart, let end = e.loopEnd {
                members.append(("loop", .object([("start", .number(start)), ("end", .number(end))])))
            }
            if let v = e.loudness { members.append(("loudness", .number(Self.rounded(v, 2)))) }
            if let v = e.truePeak { members.append(("truePeak", .number(Self.rounded(v, 2)))) }
            members.append(("trim", .number(Self.rounded(e.trim, 2))))
            if let v = e.duration { members.append(("duration", .number(Self.rounded(v, 3)))) }
            if let v = e.description { members.append(("description", .string(v))) }
            sounds.append((e.name, .object(members)))
        }
        return JSONValue.object([
            ("version", .number(1)),
            ("referenceLoudness", .number(Self.rounded(referenceLoudness, 2))),
            ("about", .string("Built-in sounds, made by 'cabin sounds generate'. loudness: integrated LUFS and truePeak: dBTP "
                + "(EBU R128, libebur128) of the decoded file; trim: dB that brings the sound to referenceLoudness "
                + "(LUFS), for a UI one-shot no further than its true peak at -12 dBTP; loop: frames of the file; duration: seconds.")),
            ("sounds", .object(sounds)),
        ]).serialized()
    }

    /// Replaces the entry with the same name (keeping its place) or appends it.
    public mutating func upsert(_ entry: Entry) {
        if let i = sounds.firstIndex(where: { $0.name == entry.name }) { sounds[i] = entry } else { sounds.append(entry) }
    }

    private static func rounded(_ x: Double, _ places: Int) -> Double {
        let scale = pow(10, Double(places))
        return (x * scale).rounded() / scale
    }
}
