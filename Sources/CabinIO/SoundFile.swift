import CabinAudio
import CSndFile
import Glibc

/// Reading sound files (WAV, FLAC, Ogg Vorbis, Ogg Opus and whatever else libsndfile
/// reads) into float buffers.
///
/// Every failure is a `SoundFileError` that names the file and the cause in one line:
/// missing, a directory, empty, not audio, an unsupported format, truncated.
///
/// Thread: control thread only (blocking file I/O).
///
/// ```swift
/// let sound = try SoundFile.read("rain.flac")
/// print(sound.frameCount, sound.sampleRate)
/// ```
public enum SoundFile {
    /// Reads the header only.
    public static func info(_ path: String) throws(SoundFileError) -> SoundFileInfo {
        let file = try OpenSoundFile(path)
        defer { file.close() }
        return SoundFileInfo(file.info)
    }

    /// Decodes the whole file into an interleaved float buffer (−1…1), verifying that as
    /// many frames came out as the header promised.
    public static func read(_ path: String) throws(SoundFileError) -> AudioBuffer {
        let file = try OpenSoundFile(path)
        defer { file.close() }
        return try file.readAll()
    }

    /// Header and samples at once.
    public static func load(_ path: String) throws(SoundFileError) -> (info: SoundFileInfo, buffer: AudioBuffer) {
        let file = try OpenSoundFile(path)
        defer { file.close() }
        return (SoundFileInfo(file.info), try file.readAll())
    }

    /// Checks the path before libsndfile sees it, so the common mistakes get plain words.
    static func checkReadable(_ path: String) throws(SoundFileError) {
        var st = stat()
        if stat(path, &st) != 0 {
            let code = errno
            switch code {
            case ENOENT, ENOTDIR: throw SoundFileError(.notFound, path: path, reason: "no such file")
            case EACCES: throw SoundFileError(.permissionDenied, path: path, reason: "permission denied")
            default: throw SoundFileError(.notFound, path: path, reason: SystemError.describe(errno: code))
            }
        }
        switch st.st_mode & S_IFMT {
        case S_IFDIR: throw SoundFileError(.isDirectory, path: path, reason: "is a directory, not a sound file")
        case S_IFREG: break
        case S_IFCHR: throw SoundFileError(.notAudio, path: path, reason: "is a device, not a sound file")
        case S_IFBLK: throw SoundFileError(.notAudio, path: path, reason: "is a block device, not a sound file")
        case S_IFIFO: throw SoundFileError(.notAudio, path: path, reason: "is a pipe (FIFO), not a sound file: Cabin reads sound files whole; save the stream to a file first")
        case S_IFSOCK: throw SoundFileError(.notAudio, path: path, reason: "is a socket, not a sound file")
        default: throw SoundFileError(.notAudio, path: path, reason: "is not a regular file")
        }
        if st.st_size == 0 {
            throw SoundFileError(.empty, path: path, reason: "empty file (0 bytes)")
        }
        if access(path, R_OK) != 0 {
            throw SoundFileError(.permissionDenied, path: path, reason: "permission denied")
        }
    }
}

/// An open libsndfile handle. Internal: `SoundFile` hands out buffers, never handles.
public struct OpenSoundFile {
    let handle: OpaquePointer
    let info: SF_INFO
    /// The file's path, as given to open it (the one its errors name).
    public let path: String
    /// The file's size in bytes when it was opened.
    public let byteCount: Int64
    /// Channels, as the file declares them.
    public var channelCount: Int { Int(info.channels) }
    /// Frames the header declares (an estimate for some formats; see `hasExactLength`).
    public var declaredFrames: Int64 { Int64(info.frames) }
    /// The file's sample rate in Hz.
    public var sampleRate: Double { Double(info.samplerate) }
    /// A plain Ogg Opus file's decoder (`OggOpusFileReader`: libopus directly, the same
    /// samples as libsndfile's decoding at a fraction of its cost); nil for every other file.
    private var opus: OggOpusFileReader?
    /// Whether libopus decodes this file directly (`OggOpusFileReader`).
    package var decodesOpusDirectly: Bool { opus != nil }

    /// Opens for reading. The corresponding C function is `sf_open`.
    public init(_ path: String) throws(SoundFileError) {
        try self.init(path, decodingOpusDirectly: true)
    }

    /// Opens for reading; with `decodingOpusDirectly` false, libsndfile decodes Ogg Opus too
    /// (the reference `OggOpusFileReader` is compared with).
    package init(_ path: String, decodingOpusDirectly: Bool) throws(SoundFileError) {
        try SoundFile.checkReadable(path)
        var info = SF_INFO()
        guard let handle = sf_open(path, Int32(SFM_READ), &info) else {
            let message = String(cString: sf_strerror(nil))
            throw OpenSoundFile.classifyOpenError(path: path, message: message)
        }
        self.handle = handle
        self.info = info
        self.path = path
        var st = stat()
        byteCount = stat(path, &st) == 0 ? Int64(st.st_size) : 0
        if info.channels <= 0 || info.samplerate <= 0 {
            close()
            throw SoundFileError(.notAudio, path: path, reason: "not audio: header has \(info.channels) channels at \(info.samplerate) Hz")
        }
        if Int32(info.format) & Int32(SF_FORMAT_TYPEMASK) == Int32(SF_FORMAT_OGG),
           Int32(info.format) & Int32(SF_FORMAT_SUBMASK) == Int32(SF_FORMAT_OPUS),
           decodingOpusDirectly, info.samplerate == 48_000, Int64(info.frames) != Int64.max {
            opus = OggOpusFileReader(path: path, channels: Int(info.channels), frames: Int64(info.frames))
        }
    }

    /// Closes the handle. The corresponding C function is `sf_close`.
    public func close() {
        sf_close(handle)
        opus?.close()
    }

    /// A text tag libsndfile read from the file (FLAC and Ogg comments, MP3's ID3v2, WAV's
    /// LIST INFO, AIFF's name chunks), trimmed; nil when absent or empty.
    /// The corresponding C function is `sf_get_string`.
    public func tag(_ kind: Tag) -> String? {
        guard let text = sf_get_string(handle, kind.rawValue) else { return nil }
        let value = String(decoding: String(cString: text).utf8, as: UTF8.self).trimmingWhitespace()
        return value.isEmpty ? nil : value
    }

    /// The tags `tag(_:)` reads.
    public enum Tag: Int32, Sendable {
        /// The title (`SF_STR_TITLE`).
        case title = 1
        /// The artist (`SF_STR_ARTIST`).
        case artist = 4
        /// The album (`SF_STR_ALBUM`).
        case album = 7
    }

    /// Whether libsndfile's log for this file (what it noticed while parsing the header)
    /// says the file is cut short (`logShowsTruncation(_:)`), without splitting the log
    /// into lines unless one of the markers that test looks for is in it at all (a byte
    /// search): the split was the larger part of opening an Ogg file (~0.1 ms a call).
    /// The corresponding C function is `sf_command` (SFC_GET_LOG_INFO).
    func logShowsTruncation() -> Bool {
        var text = [CChar](repeating: 0, count: 4096)
        let count = max(0, min(text.count, Int(sf_command(handle, Int32(SFC_GET_LOG_INFO), &text, Int32(text.count)))))
        let marked = text.withUnsafeBytes { raw in
            let log = UnsafeRawBufferPointer(rebasing: raw[0..<count])
            return OpenSoundFile.truncationMarkers.contains { log.firstRange(of: $0) != nil }
        }
        guard marked else { return false }
        return OpenSoundFile.logShowsTruncation(String(decoding: text.prefix(count).map { UInt8(bitPattern: $0) },
                                                       as: UTF8.self))
    }

    /// Text every line `logShowsTruncation(_:)` accepts contains one of.
    static let truncationMarkers = ["(should be", "> file length"].map { Array($0.utf8) }

    /// The frames storage may be sized by, whatever the header says: a forged or bit-flipped
    /// header (an MP3's Xing frame count, a FLAC's total samples) must not size memory.
    /// PCM holds exactly its bytes' worth. A compressed file's count is believed up to 64
    /// frames a byte (real audio needs far fewer: a FLAC ~0.5, Opus at 64 kbit/s ~6); past
    /// that the file is decoded once to count the frames it really holds, then rewound —
    /// storage grows only as far as decoding proves the frames exist. Nothing is longer than
    /// a day. The corresponding C functions are `sf_readf_float` and `sf_seek`.
    public func framesToStore() throws(SoundFileError) -> Int64 {
        let declared = max(0, declaredFrames), bytes = max(0, byteCount)
        let day = Int64(max(1, info.samplerate)) * 86_400
        let perFrame: Int64? = switch Int32(info.format) & Int32(SF_FORMAT_SUBMASK) {
        case Int32(SF_FORMAT_PCM_S8), Int32(SF_FORMAT_PCM_U8), Int32(SF_FORMAT_ULAW), Int32(SF_FORMAT_ALAW): 1
        case Int32(SF_FORMAT_PCM_16): 2
        case Int32(SF_FORMAT_PCM_24): 3
        case Int32(SF_FORMAT_PCM_32), Int32(SF_FORMAT_FLOAT): 4
        case Int32(SF_FORMAT_DOUBLE): 8
        default: nil
        }
        // FLAC reports its sample width as a PCM subtype: only uncompressed containers count by bytes.
        let major = Int32(info.format) & Int32(SF_FORMAT_TYPEMASK)
        let compressed = [Int32(SF_FORMAT_FLAC), Int32(SF_FORMAT_OGG), Int32(SF_FORMAT_MPEG)].contains(major)
        if let perFrame, !compressed { return min(declared, bytes / (perFrame * Int64(max(1, info.channels))) + 1, day) }
        if declared / 64 <= bytes { return min(declared, day) }
        var counted: Int64 = 0
        let chunkFrames = 16384
        var chunk = [Float](repeating: 0, count: chunkFrames * max(1, Int(info.channels)))
        while counted < day {
            // libsndfile's own decoding, which `sf_seek` rewinds.
            let got = chunk.withUnsafeMutableBufferPointer {
                max(0, Int(sf_readf_float(handle, $0.baseAddress!, sf_count_t(chunkFrames))))
            }
            if got <= 0 { break }
            counted += Int64(got)
        }
        guard sf_seek(handle, 0, SEEK_SET) == 0 else {
            throw SoundFileError(.truncated, path: path, reason: "corrupt: its header claims \(declared) frames and it cannot be rewound after counting \(counted)")
        }
        return min(counted, day)
    }

    /// Decodes every frame. The corresponding C function is `sf_readf_float`.
    func readAll() throws(SoundFileError) -> AudioBuffer {
        let channels = Int(info.channels)
        let declared = Int64(info.frames)
        // Some containers (Ogg) may report an unknown length; read in chunks until EOF.
        var samples: [Float] = []
        if declared > 0 && declared / 64 <= byteCount { samples.reserveCapacity(Int(declared) * channels) }
        let chunkFrames = 16384
        var chunk = [Float](repeating: 0, count: chunkFrames * channels)
        var total: Int64 = 0
        while true {
            let got = chunk.withUnsafeMutableBufferPointer { read(into: $0.baseAddress!, frames: chunkFrames) }
            if got <= 0 { break }
            samples.append(contentsOf: chunk[0..<(got * channels)])
            total += Int64(got)
        }
        try checkEnd(framesDecoded: total)
        return AudioBuffer(samples: samples, channelCount: channels, sampleRate: Double(info.samplerate))
    }

    /// Decodes up to `frames` frames into `buffer` (interleaved); 0 at the end or on an
    /// error (then `checkEnd` tells which). The corresponding C function is `sf_readf_float`.
    public func read(into buffer: UnsafeMutablePointer<Float>, frames: Int) -> Int {
        if let opus { return opus.read(into: buffer, frames: frames) }
        return max(0, Int(sf_readf_float(handle, buffer, sf_count_t(frames))))
    }

    /// Whether the header already shows the file cannot be decoded whole: an Ogg stream
    /// with no end, or a WAV/AIFF whose data chunk runs past the end of the file.
    public func checkHeader() throws(SoundFileError) {
        if Int64(info.frames) == Int64.max {
            throw SoundFileError(.truncated, path: path, reason: "truncated: the stream has no end")
        }
        if logShowsTruncation() {
            throw SoundFileError(.truncated, path: path, reason: "truncated: the file ends before its audio data does")
        }
    }

    /// After decoding `framesDecoded` frames to the end: throws if decoding stopped on an
    /// error or short of the length the header promised.
    public func checkEnd(framesDecoded total: Int64) throws(SoundFileError) {
        let declared = Int64(info.frames)
        if let failure = opus?.failure {
            let of = declared > 0 ? " of \(declared)" : ""
            throw SoundFileError(.truncated, path: path,
                                 reason: "truncated or corrupt: decoding stopped after \(total)\(of) frames (\(failure))")
        }
        let status = sf_error(handle)
        if status != 0 {
            let message = String(cString: sf_strerror(handle))
            let of = declared > 0 && declared != Int64.max ? " of \(declared)" : ""
            throw SoundFileError(.truncated, path: path,
                                 reason: "truncated or corrupt: decoding stopped after \(total)\(of) frames (\(message))")
        }
        if declared == Int64.max {
            // libsndfile could not find the end of an Ogg stream: its last page is missing.
            throw SoundFileError(.truncated, path: path,
                                 reason: "truncated: the stream has no end (\(total) frames decodable)")
        }
        if hasExactLength && declared > 0 && total < declared {
            throw SoundFileError(.truncated, path: path,
                                 reason: "truncated: the header promises \(declared) frames but only \(total) could be decoded")
        }
        if logShowsTruncation() {
            throw SoundFileError(.truncated, path: path,
                                 reason: "truncated: the file ends before its audio data does (\(total) frames readable)")
        }
    }

    /// Whether the header's frame count is exact (MPEG frame counts are estimates).
    public var hasExactLength: Bool {
        let sub = Int(info.format) & Int(SF_FORMAT_SUBMASK)
        return sub != Int(SF_FORMAT_MPEG_LAYER_III) && sub != Int(SF_FORMAT_MPEG_LAYER_II)
            && sub != Int(SF_FORMAT_MPEG_LAYER_I)
    }

    /// How the samples are best held in memory: 16-bit for sources of at most 16 bits and
    /// for lossy codecs (whose noise floor is far above 16 bits' −98 dBFS); floats for
    /// 24-bit, 32-bit and float sources.
    public var storageFormat: SampleStorage.Format {
        switch Int32(info.format) & Int32(SF_FORMAT_SUBMASK) {
        case Int32(SF_FORMAT_PCM_24), Int32(SF_FORMAT_PCM_32), Int32(SF_FORMAT_FLOAT), Int32(SF_FORMAT_DOUBLE),
             Int32(SF_FORMAT_ALAC_20), Int32(SF_FORMAT_ALAC_24), Int32(SF_FORMAT_ALAC_32),
             Int32(SF_FORMAT_DWVW_24), Int32(SF_FORMAT_DWVW_N):
            return .float32
        default:
            return .int16
        }
    }

    /// libsndfile opens a truncated WAV/AIFF happily and shortens it, but says so in its
    /// log: the audio chunk's size line reads `data : 1920000 (should be 49956)`, or
    /// `*** Chunk size … > file length …`.
    static func logShowsTruncation(_ log: String) -> Bool {
        log.split(separator: "\n").contains { line in
            let l = line.trimmingWhitespace()
            return ((l.hasPrefix("data") || l.hasPrefix("SSND")) && l.contains("(should be"))
                || l.contains("> file length")
        }
    }

    static func classifyOpenError(path: String, message: String) -> SoundFileError {
        if let container = UnsupportedContainer.sniff(path) {
            return SoundFileError(.unsupportedFormat, path: path,
                                  reason: "unsupported format: \(container) (Cabin reads WAV, FLAC, Ogg Vorbis, Ogg Opus, MP3, AIFF; convert it, e.g. ffmpeg -i \(path) out.flac)")
        }
        let lower = message.lowercased()
        if lower.contains("format not recognised") || lower.contains("unknown format")
            || lower.contains("not recognised") || lower.contains("file contains data in an unknown format") {
            return SoundFileError(.notAudio, path: path, reason: "not a sound file libsndfile can read (\(message))")
        }
        if lower.contains("unsupported") || lower.contains("not supported") {
            return SoundFileError(.unsupportedFormat, path: path, reason: "unsupported format (\(message))")
        }
        if lower.contains("truncated") || lower.contains("end of file") || lower.contains("eof") {
            return SoundFileError(.truncated, path: path, reason: "truncated (\(message))")
        }
        if lower.contains("possibly a pipe") {
            // libsndfile says this of any regular file it could not make sense of (a cut-off
            // MP3, say): the path is known to be a regular file here (checkReadable).
            var st = stat()
            let size = stat(path, &st) == 0 ? " (\(st.st_size) bytes)" : ""
            return SoundFileError(.notAudio, path: path, reason: "not audio libsndfile can read, or cut short\(size)")
        }
        return SoundFileError(.notAudio, path: path, reason: "cannot be opened as audio (\(message))")
    }
}
