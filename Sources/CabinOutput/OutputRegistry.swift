/// The playback backends by the scheme a device name starts with: `-D alsa:hw:0`,
/// `-D none`, and (for one backend, ALSA) a bare name (`-D default`, `-D hw:0,0`). Adding a
/// backend is one `Entry` here; `cabin devices` lists every entry's devices, and an entry
/// that can serve the plain `default` when its server answers says so itself
/// (`Entry.claimsDefault`), so no backend is named by the choice.
///
/// ```swift
/// let (entry, device) = OutputRegistry.standard.resolve("alsa:hw:0")   // ALSA, "hw:0"
/// let output = try entry.make().open(device: device, configuration: .init())
/// ```
///
/// Thread: a value type; any thread.
public struct OutputRegistry: Sendable {
    /// One backend.
    public struct Entry: Sendable {
        /// What names it: `alsa`, `none`, `pipewire`.
        public var scheme: String
        /// One line for help and `cabin devices`.
        public var summary: String
        /// The device name the scheme alone stands for (`-D alsa` is ALSA's `default`).
        public var defaultDevice: String
        /// A backend instance.
        public var make: @Sendable () -> any AudioOutputBackend
        /// Whether this backend plays the plain `default` now (a sound server's daemon
        /// answering: PipeWire's); asked in the entries' order by `resolveChoosingDefault`.
        /// nil: never (the bare scheme plays `default` when no entry claims it).
        public var claimsDefault: (@Sendable () -> Bool)?

        /// - Parameters:
        ///   - scheme: what names it in a `-D` value (`pipewire`, `pipewire:NODE`).
        ///   - summary: one line for help and `cabin devices`.
        ///   - defaultDevice: the device the scheme alone stands for.
        ///   - claimsDefault: whether it plays the plain `default` now (nil: never).
        ///   - make: a backend instance.
        public init(scheme: String, summary: String, defaultDevice: String,
                    claimsDefault: (@Sendable () -> Bool)? = nil,
                    make: @escaping @Sendable () -> any AudioOutputBackend) {
            self.scheme = scheme
            self.summary = summary
            self.defaultDevice = defaultDevice
            self.claimsDefault = claimsDefault
            self.make = make
        }
    }

    /// Every backend, in the order `cabin devices` lists them.
    public private(set) var entries: [Entry]
    /// The scheme a name with no known scheme belongs to.
    public let bareScheme: String

    /// A registry of `entries` in listing order, where a name with no known scheme goes to
    /// `bareScheme` (one of the entries' schemes: a precondition).
    public init(entries: [Entry], bareScheme: String) {
        precondition(entries.contains { $0.scheme == bareScheme }, "the bare scheme must be registered")
        self.entries = entries
        self.bareScheme = bareScheme
    }

    /// Adds a backend (or replaces the one with its scheme).
    public mutating func register(_ entry: Entry) {
        entries.removeAll { $0.scheme == entry.scheme }
        entries.append(entry)
    }

    /// The backend for a `-D` value and the name it is given: `SCHEME` alone is the scheme's
    /// default device, `SCHEME:NAME` is NAME on it, and anything else (ALSA's `hw:0,0` and
    /// `plughw:CARD=X` included: `hw` is no scheme) is a name for the bare scheme.
    public func resolve(_ spec: String) -> (entry: Entry, device: String) {
        if let entry = entries.first(where: { $0.scheme == spec }) { return (entry, entry.defaultDevice) }
        if let colon = spec.firstIndex(of: ":"), let entry = entries.first(where: { $0.scheme == spec[..<colon] }) {
            let name = String(spec[spec.index(after: colon)...])
            return (entry, name.isEmpty ? entry.defaultDevice : name)
        }
        return (entries.first { $0.scheme == bareScheme }!, spec)
    }

    /// The `-D` value when none is given: `default`.
    public static let defaultDevice = "default"

    /// `resolve`, with the default device chosen: `default` (not `alsa:default`) is played by
    /// the first entry that claims it now (`Entry.claimsDefault`: PipeWire's default sink
    /// when its daemon answers, one `connect(2)`), else by the bare scheme (ALSA's `default`;
    /// `LivePlayer.open` falls back to the silent clock when ALSA has no sound device
    /// either). `spec` is what was chosen, as `-D` would name it (`pipewire` or `default`):
    /// what the `started` event and the first line of `cabin play` say.
    public func resolveChoosingDefault(_ spec: String) -> (entry: Entry, device: String, spec: String) {
        if spec == Self.defaultDevice, let entry = entries.first(where: { $0.claimsDefault?() == true }) {
            return (entry, entry.defaultDevice, entry.scheme)
        }
        let resolved = resolve(spec)
        return (resolved.entry, resolved.device, spec)
    }
}
