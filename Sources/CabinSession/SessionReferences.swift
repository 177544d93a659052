/// What a document's sounds and haptic patterns point at, checked while it is read, so a
/// library name that does not exist or a file that is not there is a document error —
/// located, with the name meant where one is close — and never a session that validates
/// and then plays silence.
///
/// The reader stays pure: whoever knows the libraries and the document's folder (the
/// loader, `cabin session validate`) supplies the checks. Each returns why a reference
/// cannot be played (one line), or nil when it can.
///
/// ```swift
/// let references = SessionReferences(sound: { ref in ref == .library("ambient/rian") ? "not in the sound library" : nil },
///                                    haptic: { _ in nil })
/// let result = SessionReader.read(bytes, file: "drive.json", references: references)
/// ```
///
/// Thread: a value; its checks may be called from any thread.
public struct SessionReferences: Sendable {
    /// Why a library sound or a sound file cannot be played, or nil (never asked about
    /// `synth:` sources).
    public var sound: @Sendable (SoundReference) -> String?
    /// Why a haptic pattern cannot be played, or nil.
    public var haptic: @Sendable (HapticReference) -> String?
    /// Internet stations by the names a document may give them (`"sound": "station:kexp"`),
    /// to their URLs: the user's (the config file's `[stations]`). A name not here is a
    /// document error.
    public var stations: [String: String]

    /// The checks for sounds and haptic patterns, and the stations by name (none unless given).
    public init(sound: @escaping @Sendable (SoundReference) -> String?,
                haptic: @escaping @Sendable (HapticReference) -> String?,
                stations: [String: String] = [:]) {
        self.sound = sound
        self.haptic = haptic
        self.stations = stations
    }
}
