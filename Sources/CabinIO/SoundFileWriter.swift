import CSndFile
import CabinAudio
import Glibc

/// The file formats Cabin writes.
public enum SoundFileFormat: Sendable, Equatable, CustomStringConvertible {
    /// WAV with 16-bit or 24-bit integer PCM, or 32-bit float (RF64 past 4 GiB).
    case wav(SampleEncoding)
    /// FLAC with 16-bit or 24-bit samples (FLAC has no float).
    case flac(SampleEncoding)
    /// AIFF with 16-bit or 24-bit integer PCM, or 32-bit float (AIFF-C).
    case aiff(SampleEncoding)
    /// Ogg Opus (lossy, 48 kHz only) at about `bitrate` bits per second for the whole
    /// stream (6–256 kb/s per channel).
    case opus(bitrate: Int)
    /// Ogg Vorbis (lossy) at a quality 0…1 (oggenc's scale divided by 10; 0.5 ≈ 160 kb/s stereo).
    case vorbis(quality: Double)
    /// MP3 (MPEG-1/2 layer III through LAME, lossy, 8–48 kHz), variable bit rate at LAME's
    /// `-V` quality 0 (best) … 9.
    case mp3(vbrQuality: Int)

    /// Sample encodings. Integer encodings round to the nearest step (no dither), so a
    /// float that is an exact multiple of the step survives a write → read unchanged.
    public enum SampleEncoding: String, Sendable, CaseIterable {
        /// 16-bit integers (raw value `16`).
        case pcm16 = "16"
        /// 24-bit integers (raw value `24`).
        case pcm24 = "24"
        /// 32-bit IEEE floats, as mixed (raw value `32f`).
        case float32 = "32f"

        /// Largest integer code (2^(bits−1)); `nil` for float.
        var scale: Double? {
            switch self {
            case .pcm16: 32768
            case .pcm24: 8_388_608
            case .float32: nil
            }
        }
    }

    var encoding: SampleEncoding {
        switch self {
        case .wav(let e), .flac(let e), .aiff(let e): e
        case .opus, .vorbis, .mp3: .float32
        }
    }

    /// Whether the format throws samples away (its bits are an encoder's).
    public var isLossy: Bool {
        switch self {
        case .opus, .vorbis, .mp3: true
        case .wav, .flac, .aiff: false
        }
    }

    var sndfileFormat: Int32 {
        switch self {
        case .opus: return Int32(SF_FORMAT_OGG) | Int32(SF_FORMAT_OPUS)
        case .vorbis: return Int32(SF_FORMAT_OGG) | Int32(SF_FORMAT_VORBIS)
        case .mp3: return Int32(SF_FORMAT_MPEG) | Int32(SF_FORMAT_MPEG_LAYER_III)
        case .wav, .flac, .aiff: break
        }
        let major: Int32 = switch self {
        case .flac: Int32(SF_FORMAT_FLAC)
        case .aiff: Int32(SF_FORMAT_AIFF)
        default: Int32(SF_FORMAT_WAV)
        }
        let sub: Int32 = switch encoding {
        case .pcm16: Int32(SF_FORMAT_PCM_16)
        case .pcm24: Int32(SF_FORMAT_PCM_24)
        case .float32: Int32(SF_FORMAT_FLOAT)
        }
        return major | sub
    }

    /// The extensions Cabin writes, with the format each names.
    public static let extensions: [(String, String)] = [
        (".wav", "WAV"), (".flac", "FLAC"), (".aiff", "AIFF"), (".aif", "AIFF"), (".opus", "Ogg Opus"),
        (".ogg", "Ogg Vorbis"), (".oga", "Ogg Vorbis"), (".mp3", "MP3"),
    ]

    /// The format a file name's extension names, or nil for none Cabin writes. Lossless
    /// formats take `encoding` (FLAC has no float: 24-bit); lossy ones their encoder's
    /// defaults (Opus 96 kb/s, Vorbis q5, MP3 -V2).
    public static func named(by path: String, encoding: SampleEncoding) -> SoundFileFormat? {
        let name = path.split(separator: "/").last.map(String.init)?.lowercased() ?? ""
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
        switch name[dot...] {
        case ".wav": return .wav(encoding)
        case ".flac": return .flac(encoding == .float32 ? .pcm24 : encoding)
        case ".aiff", ".aif": return .aiff(encoding)
        case ".opus": return .opus(bitrate: 96000)
        case ".ogg", ".oga": return .vorbis(quality: 0.5)
        case ".mp3": return .mp3(vbrQuality: 2)
        default: return nil
        }
    }

    /// The format for a file name: the one its extension names, anything else → WAV.
    public static func forPath(_ path: String, encoding: SampleEncoding) -> SoundFileFormat {
        named(by: path, encoding: encoding) ?? .wav(encoding)
    }

    /// The format to write `path` in: the one its extension names; WAV for standard output
    /// (`-`) and for a device or FIFO (which take a stream, e.g. `/dev/null`) or a directory
    /// (which the output refuses with its own words); otherwise
    /// an error that lists the formats (a `.txt` or a name without an extension would get
    /// WAV data under a name that does not say so).
    public static func forOutput(_ path: String, encoding: SampleEncoding) throws(SoundFileError) -> SoundFileFormat {
        if let format = named(by: path, encoding: encoding) { return format }
        var st = stat()
        // A directory is left to the output's own check ("is a directory; give a file name").
        if path == "-" || (stat(path, &st) == 0 && (st.st_mode & S_IFMT) != S_IFREG) {
            return .wav(encoding)
        }
        let list = Self.extensions.map(\.0).joined(separator: " ")
        throw SoundFileError(.unsupportedFormat, path: path,
                             reason: "the name does not say which format to write: end it with one of \(list) (or '-' for WAV on standard output)")
    }

    public var description: String {
        switch self {
        case .wav(let e): "WAV \(e == .float32 ? "32-bit float" : "\(e.rawValue)-bit")"
        case .flac(let e): "FLAC \(e.rawValue)-bit"
        case .aiff(let e): "AIFF \(e == .float32 ? "32-bit float" : "\(e.rawValue)-bit")"
        case .opus(let bitrate): "Ogg Opus \(bitrate / 1000) kb/s"
        case .vorbis(let quality): "Ogg Vorbis q\(String(cFormat: "%g", quality * 10))"
        case .mp3(let q): "MP3 VBR -V\(q)"
        }
    }

    /// Bytes one sample takes in the file (PCM and float; lossy formats are compressed: 0).
    var bytesPerSample: Int {
        if isLossy { return 0 }
        return switch encoding {
        case .pcm16: 2
        case .pcm24: 3
        case .float32: 4
        }
    }

    /// The most sample bytes a WAV file holds: its RIFF sizes are 32-bit (less a margin
    /// for the header chunks).
    public static let maxWAVDataBytes: Int64 = 0xFFFF_FFFF - 4096

    /// Whether `frames` of `channels` pass what a WAV holds: such a WAV is written as RF64.
    public func needsRF64(frames: Int64, channels: Int) -> Bool {
        guard case .wav = self else { return false }
        let (bytes, overflow) = frames.multipliedReportingOverflow(by: Int64(channels * bytesPerSample))
        return overflow || bytes > Self.maxWAVDataBytes
    }

    /// The description of a file of `frames` × `channels` in this format ("RF64 WAV 24-bit"
    /// past 4 GiB).
    public func description(frames: Int64, channels: Int) -> String {
        needsRF64(frames: frames, channels: channels) ? "RF64 \(description)" : description
    }

}

extension SoundFile {
    /// Writes `buffer` to `path` in `format`, replacing the file only with a complete one
    /// (through an `OutputFile`). Samples outside −1…1 are clipped for integer encodings.
    ///
    /// The corresponding C functions are `sf_open_fd` (SFM_WRITE), `sf_writef_int`,
    /// `sf_writef_float` and `sf_close`.
    public static func write(_ buffer: AudioBuffer, to path: String, format: SoundFileFormat) throws(SoundFileError) {
        let output: OutputFile
        do { output = try OutputFile(path) } catch { throw SoundFileError(.writeFailed, path: error.path, reason: error.reason) }
        try write(buffer, to: output, format: format)
    }

    /// Writes `buffer` into `output` and commits it (see `OutputFile`): the destination is
    /// replaced only by a complete file. On failure the output is discarded.
    public static func write(_ buffer: AudioBuffer, to output: OutputFile, format: SoundFileFormat) throws(SoundFileError) {
        do throws(SoundFileError) {
            let writer = try SoundFileWriter(output: output, format: format, channelCount: buffer.channelCount,
                                             sampleRate: buffer.sampleRate, expectedFrames: Int64(buffer.frameCount))
            try buffer.samples.withUnsafeBufferPointer { (p) throws(SoundFileError) in try writer.write(p) }
            try writer.close()
            do { try output.commit() } catch { throw SoundFileError(.writeFailed, path: error.path, reason: error.reason) }
        } catch {
            output.discard()
            throw error
        }
    }
}

/// A file being written block by block (the offline renderer streams into one).
///
/// Thread: control thread only (blocking file I/O).
public final class SoundFileWriter {
    private var handle: OpaquePointer?
    /// The file's path as its messages name it (an `OutputFile`'s `name`).
    public let path: String
    /// The container and encoding written.
    public let format: SoundFileFormat
    /// Channels per frame; the samples written are interleaved in this many.
    public let channelCount: Int
    private var scratch: [Int32] = []
    /// Frames (per channel) written so far.
    public private(set) var framesWritten: Int64 = 0
    /// Whether a WAV is written as RF64 (EBU Tech 3306: 64-bit sizes), because it was
    /// expected to pass 4 GiB.
    public private(set) var isRF64 = false
    /// The `OutputFile`'s descriptor when writing into one (it stays open after `sf_close`).
    private var outputDescriptor: Int32 = -1

    /// Creates (or truncates) `path`. The corresponding C function is `sf_open`.
    public convenience init(path: String, format: SoundFileFormat, channelCount: Int, sampleRate: Double) throws(SoundFileError) {
        try self.init(path: path, format: format, channelCount: channelCount, sampleRate: sampleRate) { info in
            sf_open(path, Int32(SFM_WRITE), &info)
        }
    }

    /// Writes into `output` (its temporary or spool); messages name `output.name`, and
    /// `output.commit()` puts the file in place after `close()`. The corresponding C
    /// function is `sf_open_fd`.
    ///
    /// `expectedFrames`: how long the file will be, when known. A WAV expected past 4 GiB is
    /// written as RF64 (which libsndfile and most editors read); a WAV that grows past it
    /// unannounced is refused with an error rather than written with a wrong header.
    public convenience init(output: OutputFile, format: SoundFileFormat, channelCount: Int, sampleRate: Double,
                            expectedFrames: Int64? = nil) throws(SoundFileError) {
        try self.init(path: output.name, format: format, channelCount: channelCount, sampleRate: sampleRate,
                      expectedFrames: expectedFrames) { info in
            let fd = dup(output.descriptor)
            guard fd >= 0 else { return nil }
            guard let handle = sf_open_fd(fd, Int32(SFM_WRITE), &info, 1) else { Glibc.close(fd); return nil }
            return handle
        }
        outputDescriptor = output.descriptor
    }

    private init(path: String, format: SoundFileFormat, channelCount: Int, sampleRate: Double,
                 expectedFrames: Int64? = nil, open: (inout SF_INFO) -> OpaquePointer?) throws(SoundFileError) {
        self.path = path
        self.format = format
        self.channelCount = channelCount
        var info = SF_INFO()
        info.channels = Int32(channelCount)
        info.samplerate = Int32(sampleRate.rounded())
        info.format = format.sndfileFormat
        if let expectedFrames, format.needsRF64(frames: expectedFrames, channels: channelCount) {
            info.format = (info.format & ~Int32(SF_FORMAT_TYPEMASK)) | Int32(SF_FORMAT_RF64)
            isRF64 = true
        }
        guard sf_format_check(&info) != 0 else {
            throw SoundFileError(.unsupportedFormat, path: path,
                                 reason: "cannot write \(format) with \(channelCount) channels at \(Int(sampleRate)) Hz")
        }
        guard let h = open(&info) else {
            throw SoundFileError(.writeFailed, path: path, reason: Self.reason(code: 0, handle: nil, after: "cannot create"))
        }
        handle = h
        // libsndfile stamps float WAVs with a PEAK chunk holding the wall-clock time, which
        // would make two renders of the same session differ: leave it out.
        sf_command(h, Int32(SFC_SET_ADD_PEAK_CHUNK), nil, Int32(SF_FALSE))
        switch format {
        case .opus(let bitrate):
            // libsndfile maps compression level 0…1 linearly onto 256…6 kb/s per channel.
            let perChannel = Double(bitrate) / Double(channelCount)
            var level = min(1, max(0, (256_000 - perChannel) / 250_000))
            sf_command(h, Int32(SFC_SET_COMPRESSION_LEVEL), &level, Int32(MemoryLayout<Double>.size))
        case .vorbis(let quality):
            // libsndfile's Vorbis quality is 1 − the compression level.
            var level = min(1, max(0, 1 - quality))
            sf_command(h, Int32(SFC_SET_COMPRESSION_LEVEL), &level, Int32(MemoryLayout<Double>.size))
        case .mp3(let q):
            // Variable bit rate; libsndfile gives LAME's VBR quality as the compression level × 10.
            var mode = Int32(SF_BITRATE_MODE_VARIABLE)
            sf_command(h, Int32(SFC_SET_BITRATE_MODE), &mode, Int32(MemoryLayout<Int32>.size))
            var level = Double(min(9, max(0, q))) / 10
            sf_command(h, Int32(SFC_SET_COMPRESSION_LEVEL), &level, Int32(MemoryLayout<Double>.size))
        case .wav, .flac, .aiff: break
        }
    }

    deinit { if let handle { sf_close(handle) } }

    /// Appends interleaved frames. The corresponding C functions are `sf_writef_float`
    /// and `sf_writef_int`.
    public func write(_ samples: UnsafeBufferPointer<Float>) throws(SoundFileError) {
        guard let handle else { throw SoundFileError(.writeFailed, path: path, reason: "already closed") }
        precondition(samples.count % channelCount == 0)
        let frames = samples.count / channelCount
        if case .wav = format, !isRF64,
           (framesWritten + Int64(frames)) * Int64(channelCount * format.bytesPerSample) > SoundFileFormat.maxWAVDataBytes {
            throw SoundFileError(.writeFailed, path: path, reason: "a WAV file holds at most 4 GiB (\(framesWritten) frames here); "
                                 + "write FLAC (-o NAME.flac), or fewer channels or bits")
        }
        let written: sf_count_t
        errno = 0
        if let scale = format.encoding.scale {
            // Round to the format's own step and left-justify into libsndfile's 32-bit int.
            let shift = format.encoding == .pcm16 ? 16 : 8
            if scratch.count < samples.count { scratch = [Int32](repeating: 0, count: samples.count) }
            scratch.withUnsafeMutableBufferPointer { out in
                for i in 0..<samples.count { out[i] = SoundFileWriter.code(samples[i], scale: scale) << Int32(shift) }
            }
            written = scratch.withUnsafeBufferPointer { sf_writef_int(handle, $0.baseAddress, sf_count_t(frames)) }
        } else {
            written = sf_writef_float(handle, samples.baseAddress, sf_count_t(frames))
        }
        // The MP3 encoder reports every frame written even when its bytes were not (a full
        // disk): libsndfile keeps the failure as the handle's error, so that is checked too.
        // (Each write call starts with the handle's error cleared.)
        guard written == frames, sf_error(handle) == 0 else {
            let code = errno
            let after = framesWritten + Int64(max(0, written))
            throw SoundFileError(.writeFailed, path: path, reason: Self.reason(code: code, handle: handle, after: "write failed after \(after) frames"))
        }
        framesWritten += Int64(frames)
    }

    /// A write failure in Cabin's words: the errno's (`OutputError.reason`), else
    /// libsndfile's message — its "System error : No space left on device." as the errno
    /// it names.
    static func reason(code: Int32, handle: OpaquePointer?, after context: String) -> String {
        if code != 0 { return OutputError.reason(code) }
        let message = String(cString: sf_strerror(handle))
        for known in [ENOSPC, EDQUOT, EFBIG, EIO, EROFS, EACCES, EPIPE] where message.contains(SystemError.describe(errno: known)) {
            return OutputError.reason(known)
        }
        let plain = message.hasPrefix("System error : ") ? String(message.dropFirst("System error : ".count)) : message
        return "\(context): \(plain.hasSuffix(".") ? String(plain.dropLast()) : plain)"
    }

    /// A sample as an integer code of `scale` steps a unit (2¹⁵ for 16-bit, 2²³ for 24-bit):
    /// `sample × scale` rounded half away from zero, clipped to −scale … scale − 1, NaN as 0.
    /// `rounded()` is a libm call a sample (it and the array's checks were most of writing a
    /// 16-bit file), so the half is added with the value's sign and the sum truncated: the
    /// same code. The clipped value `y` has a float's 24 significant bits and |y| ≤ 2²³ + 1,
    /// so y ± ½ is exact for |y| ≥ 2⁻³⁰; below that it rounds to within 2⁻³⁰ of ±½ and
    /// truncates to 0 all the same. No branch depends on the sample but the NaN test.
    @inline(__always)
    static func code(_ sample: Float, scale: Double) -> Int32 {
        let x = Double(sample) * scale  // exact: scale is a power of two
        guard !x.isNaN else { return 0 }
        // Past the range the code is clipped anyway; within it the truncation cannot trap.
        let y = Swift.min(scale, Swift.max(-scale - 1, x))
        let rounded = Int32(y + Double(signOf: y, magnitudeOf: 0.5))
        return Swift.min(Int32(scale) - 1, Swift.max(-Int32(scale), rounded))
    }

    /// Finishes the header and closes the file. The corresponding C function is `sf_close`.
    /// An Ogg file (Opus, Vorbis) then gets ``OggSerialNumber/renderSerial`` in place of
    /// libsndfile's random one, so the same audio gives the same bytes.
    public func close() throws(SoundFileError) {
        guard let h = handle else { return }
        handle = nil
        errno = 0
        let status = sf_close(h)
        // sf_close reports only the close of the file: the encoder's last bytes (LAME's
        // flush, the MP3's Xing header) are written before, their failure left in errno.
        let code = errno
        if status != 0 || [ENOSPC, EDQUOT, EFBIG, EIO].contains(code) {
            if code != 0 { throw SoundFileError(.writeFailed, path: path, reason: OutputError.reason(code)) }
            throw SoundFileError(.writeFailed, path: path, reason: Self.reason(code: 0, handle: nil, after: "closing failed"))
        }
        switch format {
        case .opus, .vorbis:
            if outputDescriptor >= 0 {
                try OggSerialNumber.rewrite(descriptor: outputDescriptor, name: path, serial: OggSerialNumber.renderSerial)
            } else {
                try OggSerialNumber.rewrite(path, serial: OggSerialNumber.renderSerial)
            }
        case .wav, .flac, .aiff, .mp3:
            break
        }
    }
}
