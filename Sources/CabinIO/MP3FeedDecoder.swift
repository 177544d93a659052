import CMpg123

/// MP3 (MPEG-1/2 layer III, also layers I and II) fed as it arrives, with libmpg123's feed
/// API: frames are found in the byte stream (skipping ID3 tags and junk), decoded to
/// interleaved stereo floats (a mono stream is duplicated) at the stream's own rate.
///
/// The corresponding C functions are `mpg123_new`, `mpg123_open_feed`, `mpg123_feed`,
/// `mpg123_read` and `mpg123_getformat`.
///
/// Thread: one thread at a time (not the render thread: it allocates).
public final class MP3FeedDecoder {
    private let handle: OpaquePointer
    private var scratch = [Float](repeating: 0, count: 16_384)
    private var channels = 2
    /// The frames now decoded are in another format than the first (dropped).
    private var decodingOther = false
    private var otherChannels = 2
    /// The stream's rate (0 until the first frame is found).
    public private(set) var sampleRate = 0.0
    /// Frames decoded so far.
    public private(set) var decodedFrames = 0
    /// Keep only frames in the first format found (`init(keepingFirstFormat:)`).
    private let keepsFirstFormat: Bool
    private var firstFormat: (rate: Double, channels: Int)?
    /// Frames dropped because they came in another format than the first.
    public private(set) var droppedFrames = 0

    /// `keepingFirstFormat`: frames in another rate or channel count than the first are
    /// dropped — a stream's garbage resyncs on false frame headers of every rate (a radio
    /// station never changes its format in the middle of a connection).
    public init(keepingFirstFormat: Bool = false) throws(SystemError) {
        keepsFirstFormat = keepingFirstFormat
        var error: Int32 = 0
        guard let handle = mpg123_new(nil, &error) else {
            throw SystemError(operation: "mpg123_new", code: 0, reason: String(cString: mpg123_plain_strerror(error)))
        }
        self.handle = handle
        mpg123_param2(handle, Int32(MPG123_ADD_FLAGS.rawValue), Int(MPG123_QUIET.rawValue), 0)
        mpg123_format_none(handle)
        var rates: UnsafePointer<Int>?
        var count = 0
        mpg123_rates(&rates, &count)
        for i in 0..<count {
            mpg123_format(handle, rates![i], Int32(MPG123_MONO.rawValue | MPG123_STEREO.rawValue), Int32(MPG123_ENC_FLOAT_32.rawValue))
        }
        guard mpg123_open_feed(handle) == MPG123_OK.rawValue else {
            mpg123_delete(handle)
            throw SystemError(operation: "mpg123_open_feed", code: 0, reason: "could not open a feed")
        }
    }

    deinit { mpg123_delete(handle) }

    /// The ReplayGain (dB) an MP3's own header carries, as libmpg123 reads it: the LAME/Info
    /// tag's "radio" (track) or "audiophile" (album) gain, or an ID3v2 `RVA2` frame; nil when
    /// there is none (or it is exactly 0 dB, which libmpg123 does not tell apart). The LAME
    /// tag's gains are ReplayGain 1.0's (89 dB SPL, taken as −18 LUFS as ReplayGain 2.0 does).
    /// `bytes`: the file's first bytes (the tag is in its first frame).
    ///
    /// The corresponding C functions are `mpg123_param2` (`MPG123_RVA`), `mpg123_feed`,
    /// `mpg123_getformat` and `mpg123_getvolume`.
    public static func headerReplayGain(_ bytes: [UInt8], album: Bool) -> Double? {
        guard let decoder = try? MP3FeedDecoder() else { return nil }
        let h = decoder.handle
        mpg123_param2(h, Int32(MPG123_RVA.rawValue), Int(album ? MPG123_RVA_ALBUM.rawValue : MPG123_RVA_MIX.rawValue), 0)
        guard bytes.withUnsafeBufferPointer({ mpg123_feed(h, $0.baseAddress, $0.count) }) == MPG123_OK.rawValue else { return nil }
        var rate = 0, channels: Int32 = 0, encoding: Int32 = 0
        guard mpg123_getformat(h, &rate, &channels, &encoding) == MPG123_OK.rawValue else { return nil }
        var base = 0.0, really = 0.0, gain = 0.0
        guard mpg123_getvolume(h, &base, &really, &gain) == MPG123_OK.rawValue, gain.isFinite, gain != 0 else { return nil }
        return gain
    }

    /// Feeds bytes and appends every frame they complete to `output` (interleaved stereo).
    /// Returns the frames appended.
    @discardableResult
    public func decode(_ bytes: [UInt8], into output: inout [Float]) throws(SystemError) -> Int {
        if !bytes.isEmpty {
            let fed = bytes.withUnsafeBufferPointer { mpg123_feed(handle, $0.baseAddress, $0.count) }
            guard fed == MPG123_OK.rawValue else {
                throw SystemError(operation: "mpg123_feed", code: 0, reason: String(cString: mpg123_strerror(handle)))
            }
        }
        var total = 0
        while true {
            var done = 0
            let result = scratch.withUnsafeMutableBytes { mpg123_read(handle, $0.baseAddress, $0.count, &done) }
            if result == MPG123_NEW_FORMAT.rawValue {
                var rate = 0, ch: Int32 = 0, encoding: Int32 = 0
                mpg123_getformat(handle, &rate, &ch, &encoding)
                let format = (rate: Double(rate), channels: Int(ch))
                let first = firstFormat ?? format
                firstFormat = first
                decodingOther = keepsFirstFormat && format != first
                if decodingOther { otherChannels = format.channels } else { (sampleRate, channels) = format }
            }
            let frames = done / MemoryLayout<Float>.size / max(1, decodingOther ? otherChannels : channels)
            if decodingOther {
                droppedFrames += frames
            } else if frames > 0 {
                if channels == 1 {
                    for i in 0..<frames {
                        output.append(scratch[i])
                        output.append(scratch[i])
                    }
                } else {
                    output.append(contentsOf: scratch[0..<(2 * frames)])
                }
                total += frames
            }
            if result == MPG123_NEED_MORE.rawValue || result == MPG123_DONE.rawValue { break }
            if result == MPG123_ERR.rawValue {
                throw SystemError(operation: "mpg123_read", code: 0, reason: String(cString: mpg123_strerror(handle)))
            }
            if result != MPG123_OK.rawValue && result != MPG123_NEW_FORMAT.rawValue { break }
        }
        decodedFrames += total
        return total
    }
}
