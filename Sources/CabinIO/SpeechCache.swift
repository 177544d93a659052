import Glibc

/// Spoken prompts kept between runs, so a session that says the same texts again starts
/// without synthesizing them (Flite's `slt` needs ~50–100 ms of CPU per prompt; the drive
/// says five); and the measured loudness of synthesized sources (`key(synthLoudness:…)`:
/// ~30 ms for the drive's live engine), which the loudness target needs before playing.
///
/// Each entry holds the samples exactly as the loader made them (synthesized, polished, at
/// the session's rate) and their measured loudness, under a key naming the voice, the text,
/// the rate and the running executable (its size and modification time): a rebuilt or
/// updated `cabin` never reads what another build made, so a cached prompt is always
/// bit-identical to a fresh one. A file that is not a whole entry for its key is ignored.
///
/// Where: `$CABIN_SPEECH_CACHE` (a folder; `off` turns the cache off), else
/// `$XDG_CACHE_HOME/cabin/speech`, else `~/.cache/cabin/speech` (`HomeDirectory`: none when
/// the home folder does not exist). At most `maximumEntries`
/// files are kept (the oldest go first). Failing to read or write the cache is never an
/// error: the prompt is synthesized as without one.
///
/// Thread: any one thread at a time per key (files are written to a temporary and renamed).
/// The corresponding C functions are `open`, `read`, `write`, `rename`, `stat`, `opendir`.
public struct SpeechCache: Sendable {
    /// The folder entries are kept in.
    public let directory: String
    /// Files kept at most.
    public static let maximumEntries = 128

    /// The cache from the environment, or nil when it is off or has no place.
    public static func standard() -> SpeechCache? {
        if let given = getenv("CABIN_SPEECH_CACHE").map({ String(cString: $0) }), !given.isEmpty {
            return given == "off" ? nil : SpeechCache(directory: given)
        }
        if let xdg = getenv("XDG_CACHE_HOME").map({ String(cString: $0) }), xdg.hasPrefix("/") {
            return SpeechCache(directory: xdg + "/cabin/speech")
        }
        // A missing home is never made (HomeDirectory): no cache then.
        guard HomeDirectory.exists, let home = HomeDirectory.path else { return nil }
        return SpeechCache(directory: (home == "/" ? "" : home) + "/.cache/cabin/speech")
    }

    /// A cache in `directory` (made, with its parents, when an entry is first stored).
    public init(directory: String) {
        self.directory = directory
    }

    /// One prompt as kept: interleaved samples, channels, and its integrated loudness (nil
    /// when the meter found none).
    public struct Entry: Sendable, Equatable {
        /// The samples, interleaved, at the rate the key names.
        public var samples: [Float]
        /// Channels per frame of `samples`.
        public var channelCount: Int
        /// The integrated loudness, in LUFS (nil: the meter found none).
        public var loudness: Double?

        /// An entry holding `samples` in `channelCount` channels, measured at `loudness`.
        public init(samples: [Float], channelCount: Int, loudness: Double?) {
            self.samples = samples
            self.channelCount = channelCount
            self.loudness = loudness
        }
    }

    /// The key for `text` in `voice` at `sampleRate`, made by this executable.
    public static func key(voice: String, text: String, sampleRate: Double) -> String {
        "cabin-speech 1|\(executableIdentity)|\(sampleRate)|\(voice)|\(text)"
    }

    /// The key for the measured loudness of the synthesized source `text` (its document
    /// text, `synth:engine?cylinders=8`) at `sampleRate`, made by this executable: the loader
    /// keeps what it measured (a few seconds rendered and metered) as an entry with no
    /// samples, so a session that plays the same synth again starts without measuring it.
    public static func key(synthLoudness text: String, sampleRate: Double) -> String {
        "cabin-synth-loudness 1|\(executableIdentity)|\(sampleRate)|\(text)"
    }

    /// The running executable's size and modification time (empty when unknown).
    static let executableIdentity: String = {
        var info = stat()
        guard stat("/proc/self/exe", &info) == 0 else { return "" }
        return "\(info.st_size).\(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)"
    }()

    /// The entry kept under `key`, or nil.
    public func entry(forKey key: String) -> Entry? {
        let fd = open(path(forKey: key), O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_size > 0, info.st_size < 256 << 20 else { return nil }
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size))
        var got = 0
        while got < bytes.count {
            let n = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress! + got, $0.count - got) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return nil }
            got += n
        }
        return Self.decode(bytes, key: key)
    }

    /// Keeps `entry` under `key` (quietly does nothing when the folder cannot be written).
    public func store(_ entry: Entry, forKey key: String) {
        guard makeDirectory() else { return }
        // Through `OutputFile`, as every file Cabin writes: a temporary beside it, synced and
        // renamed into place, removed on failure (a full disk leaves no half entry), and the
        // temporaries of killed processes swept.
        do throws(OutputError) {
            let output = try OutputFile(path(forKey: key))
            try output.write(Self.encode(entry, key: key))
            try output.commit()
        } catch {
            return  // a cache that cannot be written is only slower
        }
        prune()
    }

    /// The file an entry for `key` is kept in.
    public func path(forKey key: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in key.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return directory + "/" + String(repeating: "0", count: 16 - hex.count) + hex + ".speech"
    }

    /// Makes the folder and its parents.
    private func makeDirectory() -> Bool {
        var info = stat()
        if stat(directory, &info) == 0 { return info.st_mode & S_IFMT == S_IFDIR }
        var partial = ""
        for part in directory.split(separator: "/", omittingEmptySubsequences: true) {
            partial += "/" + part
            if mkdir(partial, 0o755) != 0 && errno != EEXIST { return false }
        }
        return stat(directory, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
    }

    /// Removes the oldest entries beyond `maximumEntries`.
    private func prune() {
        guard let names = directoryEntries(directory) else { return }
        var entries: [(time: Int, path: String)] = []
        for name in names {
            guard name.hasSuffix(".speech") else { continue }
            let path = directory + "/" + name
            var info = stat()
            if stat(path, &info) == 0 { entries.append((info.st_mtim.tv_sec, path)) }
        }
        guard entries.count > Self.maximumEntries else { return }
        for entry in entries.sorted(by: { $0.time < $1.time }).prefix(entries.count - Self.maximumEntries) {
            unlink(entry.path)
        }
    }

    static let magic = Array("CABINSPEECH1\n".utf8)

    /// magic, key length (UInt32) and key, channels (UInt32), has-loudness (UInt32),
    /// loudness (Float64 bits), sample count (UInt64), samples (Float32 bits); little-endian.
    static func encode(_ entry: Entry, key: String) -> [UInt8] {
        var out = magic
        let keyBytes = Array(key.utf8)
        out.reserveCapacity(magic.count + keyBytes.count + 32 + entry.samples.count * 4)
        append(UInt32(keyBytes.count), to: &out)
        out += keyBytes
        append(UInt32(entry.channelCount), to: &out)
        append(UInt32(entry.loudness == nil ? 0 : 1), to: &out)
        append((entry.loudness ?? 0).bitPattern, to: &out)
        append(UInt64(entry.samples.count), to: &out)
        for sample in entry.samples { append(sample.bitPattern, to: &out) }
        return out
    }

    static func decode(_ bytes: [UInt8], key: String) -> Entry? {
        var at = 0
        func take<T: FixedWidthInteger>(_: T.Type) -> T? {
            guard at + MemoryLayout<T>.size <= bytes.count else { return nil }
            var value: T = 0
            for i in 0..<MemoryLayout<T>.size { value |= T(bytes[at + i]) << (8 * i) }
            at += MemoryLayout<T>.size
            return value
        }
        guard bytes.count > magic.count, Array(bytes[0..<magic.count]) == magic else { return nil }
        at = magic.count
        let keyBytes = Array(key.utf8)
        guard let keyLength = take(UInt32.self), Int(keyLength) == keyBytes.count,
              at + keyBytes.count <= bytes.count, Array(bytes[at..<(at + keyBytes.count)]) == keyBytes else { return nil }
        at += keyBytes.count
        guard let channels = take(UInt32.self), channels == 1 || channels == 2,
              let hasLoudness = take(UInt32.self), let loudness = take(UInt64.self),
              let count = take(UInt64.self), count % UInt64(channels) == 0,
              UInt64(bytes.count - at) == count * 4 else { return nil }
        // The samples in one pass (a loop the compiler vectorizes; the byte-at-a-time `take`
        // was ~6 % of the default drive's launch).
        let start = at
        let samples = [Float](unsafeUninitializedCapacity: Int(count)) { out, initialized in
            bytes.withUnsafeBytes { raw in
                for i in 0..<out.count {
                    let bits = raw.loadUnaligned(fromByteOffset: start + 4 * i, as: UInt32.self)
                    out[i] = Float(bitPattern: UInt32(littleEndian: bits))
                }
            }
            initialized = out.count
        }
        return Entry(samples: samples, channelCount: Int(channels),
                     loudness: hasLoudness == 1 ? Double(bitPattern: loudness) : nil)
    }

    private static func append<T: FixedWidthInteger>(_ value: T, to out: inout [UInt8]) {
        for i in 0..<MemoryLayout<T>.size { out.append(UInt8(truncatingIfNeeded: value >> (8 * i))) }
    }
}
