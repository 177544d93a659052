/// The playback backends by the scheme a device name starts with: `-D alsa:hw:0`,
/// `-D none`, and (for one backend, ALSA) a bare name (`-D default`, `-D hw:0,0`). Adding a
/// backend is one `Entry` here; `cabin devices` lists every entry's devices.
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

        /// The backend named `scheme`, described by `summary`, opening `defaultDevice` for
        /// the scheme alone, made by `make`.
        public init(scheme: String, summary: String, defaultDevice: String,
                    make: @escaping @Sendable () -> any AudioOutputBackend) {
            self.scheme = scheme
            self.summary = summary
            self.defaultDevice = defaultDevice
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
}
