/// A sound file as a session (`cabin play song.flac`): one layer that starts at 0.
extension SessionDocument {
    /// The layer's name and bus in a one-file session.
    public static let soundFileLayer = "sound"
    /// Its own bus at 0 dB: the file plays at its own level.
    public static let soundFileBus = "sound"

    /// A session that plays the file at `path` (relative to the document's folder) once,
    /// `duration` seconds long, at its own level (no loudness target, no library trim); with
    /// `looping`, the file loops for `duration`.
    public static func playing(file path: String, duration: Double, looping: Bool = false) -> SessionDocument {
        // "./" makes any name a path (the reader takes a bare name as a path only with a sound extension).
        let layer = Layer(name: soundFileLayer, bus: soundFileBus, sound: .file(path.hasPrefix("./") ? path : "./" + path), isLooping: looping, normalize: false)
        var start = Cue(time: 0, index: 0)
        start.start = [soundFileLayer]
        return SessionDocument(title: path, duration: max(0.001, min(duration, SessionTime.maximum)),
                               buses: defaultBuses + [Bus(name: soundFileBus, gain: 0)], layers: [layer], cues: [start])
    }
}
