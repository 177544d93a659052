import COpus
import Glibc

/// The samples of an Ogg Opus file, decoded with libogg and libopus directly: what
/// `OpenSoundFile` reads from the plain Ogg Opus files (one stream, mono or stereo, no
/// output gain) that libsndfile opens at 48 kHz. libsndfile still opens the file (its
/// header checks, length, tags and errors stay as they were); only the decoding is done
/// here, to the same samples.
///
/// Why not libsndfile's decoding: it goes through libopus's multistream decoder, which
/// on every packet runs libopus's CPU detection (`cpuid`, 4 times a 20 ms packet). Under a
/// hypervisor each `cpuid` traps, ~22 µs on the 2-core VM, so libsndfile decoded Opus at
/// ~2.3× the cost of `opus_decode_float` on the same packets (measured: 316–399 µs
/// against 145 µs a packet), half of `cabin play`'s launch. The single-stream decoder here
/// detects the CPU once.
///
/// The corresponding C functions are `open`, `read`, libogg's (`OggPacketReader`),
/// `opus_decoder_create`, `opus_decode_float` and `opus_decoder_destroy`.
///
/// Thread: one thread at a time (not the render thread: it allocates and reads files).
final class OggOpusFileReader {
    private let fd: Int32
    private let decoder: OpaquePointer
    private let channels: Int
    private let packets = OggPacketReader()
    private var serial: Int32 = 0
    /// Samples of the stream still to drop at its start (the header's pre-skip).
    private var skip: Int
    /// Frames still to give (the length libsndfile declares).
    private var remaining: Int64
    /// Decoded frames not yet given, from `pendingStart`.
    private var pending: [Float]
    private var pendingStart = 0
    private var pendingFrames = 0
    private var readBuffer = [UInt8](repeating: 0, count: 65_536)
    private var atEnd = false
    private var isClosed = false
    /// Why decoding stopped early (a damaged page, a packet libopus refused), for `checkEnd`.
    private(set) var failure: String?

    /// Opens `path` for decoding when it is a plain Ogg Opus file (mapping family 0, one or
    /// two channels as libsndfile saw, no output gain); nil otherwise (libsndfile decodes it).
    init?(path: String, channels: Int, frames: Int64) {
        guard channels == 1 || channels == 2, frames > 0 else { return nil }
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        self.fd = fd
        self.channels = channels
        remaining = frames
        pending = [Float](repeating: 0, count: channels * OpusPacketDecoder.maximumPacketFrames)
        skip = 0
        var error: Int32 = 0
        guard let decoder = opus_decoder_create(48_000, Int32(channels), &error), error == OPUS_OK else {
            Glibc.close(fd)
            return nil
        }
        self.decoder = decoder
        // The identification header: "OpusHead", version, channels, pre-skip, input rate,
        // output gain, mapping family.
        guard let head = nextPacket(), head.isBeginning, head.bytes.count >= 19,
              head.bytes.starts(with: Array("OpusHead".utf8)), head.bytes[8] >> 4 == 0,
              Int(head.bytes[9]) == channels, head.bytes[16] == 0, head.bytes[17] == 0, head.bytes[18] == 0,
              let tags = nextPacket(), !tags.isBeginning, tags.bytes.starts(with: Array("OpusTags".utf8))
        else { return nil }  // deinit releases the file and the decoder
        serial = head.serial
        skip = Int(head.bytes[10]) | Int(head.bytes[11]) << 8
    }

    deinit { close() }

    /// Releases the file and the decoder; `read` gives nothing after it.
    func close() {
        guard !isClosed else { return }
        isClosed = true
        remaining = 0
        opus_decoder_destroy(decoder)
        Glibc.close(fd)
    }

    /// Up to `frames` interleaved frames into `buffer`; 0 at the end (or after a failure).
    func read(into buffer: UnsafeMutablePointer<Float>, frames: Int) -> Int {
        var given = 0
        while given < frames && remaining > 0 {
            if pendingFrames == 0 && !decodeNextPacket() { break }
            let n = min(frames - given, pendingFrames, Int(min(remaining, Int64(Int.max))))
            pending.withUnsafeBufferPointer { p in
                (buffer + given * channels).update(from: p.baseAddress! + pendingStart * channels, count: n * channels)
            }
            pendingStart += n
            pendingFrames -= n
            given += n
            remaining -= Int64(n)
        }
        return given
    }

    /// Decodes the next audio packet into `pending` (after the pre-skip); false at the end.
    private func decodeNextPacket() -> Bool {
        while pendingFrames == 0 {
            guard let packet = nextPacket() else {
                if failure == nil && remaining > 0 { failure = "the stream ends \(remaining) frames early" }
                return false
            }
            guard packet.serial == serial, !packet.isBeginning else {
                failure = "a second stream begins (chained Ogg)"
                return false
            }
            let decoded = packet.bytes.withUnsafeBufferPointer { p in
                pending.withUnsafeMutableBufferPointer { s in
                    opus_decode_float(decoder, p.baseAddress, Int32(p.count), s.baseAddress!,
                                      Int32(OpusPacketDecoder.maximumPacketFrames), 0)
                }
            }
            guard decoded >= 0 else {
                failure = "libopus: \(String(cString: opus_strerror(decoded)))"
                return false
            }
            let dropped = min(skip, Int(decoded))
            skip -= dropped
            pendingStart = dropped
            pendingFrames = Int(decoded) - dropped
        }
        return true
    }

    /// The next packet of the file, reading more of it as needed; nil at its end.
    private func nextPacket() -> OggPacketReader.Packet? {
        while true {
            if let packet = packets.nextPacket() {
                if packets.skippedBytes > 0 && failure == nil { failure = "damaged Ogg pages (\(packets.skippedBytes) bytes skipped)" }
                return failure == nil ? packet : nil
            }
            if atEnd { return nil }
            let count = readBuffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress!, $0.count) }
            if count <= 0 {
                atEnd = true
                if count < 0 { failure = SystemError.describe(errno: errno) }
                continue
            }
            packets.feed(Array(readBuffer[0..<count]))
        }
    }
}
