/// How a layer plays a playlist of the user's music (`"playlist": { … }` on a layer whose
/// `sound` is a folder or an M3U/M3U8/PLS file).
///
/// ```json
/// "radio": { "bus": "radio", "sound": "music/drive.m3u", "loop": true,
///            "playlist": { "shuffle": true, "crossfade": "4s", "replayGain": "album" } }
/// ```
///
/// Thread: a value.
public struct PlaylistOptions: Sendable, Equatable {
    /// Which gain tag sets each track's level: the track's own, or its album's (so the
    /// album's quiet songs stay quiet); a track without the tag falls back to the other tag,
    /// then to its loudness measured with libebur128.
    public enum GainMode: String, Sendable, CaseIterable {
        /// The track's own gain tag (`REPLAYGAIN_TRACK_GAIN`, `R128_TRACK_GAIN`).
        case track
        /// The album's gain tag (`REPLAYGAIN_ALBUM_GAIN`, `R128_ALBUM_GAIN`).
        case album
    }

    /// Play in a seeded random order: every track once before any repeats.
    public var shuffle = false
    /// Seconds the end of a track overlaps the next (equal-power); 0 plays them gaplessly.
    public var crossfadeSeconds = 0.0
    /// Which gain tag sets each track's level (the document's `replayGain`).
    public var gainMode = GainMode.track
    /// Start again after the last track (the layer's `loop`; set by the compiler).
    public var repeats = false
    /// The shuffle's seed (set by the compiler from the session's seed and the layer's position).
    public var seed: UInt64 = 0

    /// The longest crossfade between tracks, in seconds.
    public static let maximumCrossfadeSeconds = 30.0

    /// Options as the document's `playlist` object gives them; `repeats` and `seed` are the
    /// compiler's.
    public init(shuffle: Bool = false, crossfadeSeconds: Double = 0, gainMode: GainMode = .track) {
        self.shuffle = shuffle
        self.crossfadeSeconds = crossfadeSeconds
        self.gainMode = gainMode
    }

    /// Whether the document writes the options (anything but the defaults).
    public var isDefault: Bool { !shuffle && crossfadeSeconds == 0 && gainMode == .track }
}
