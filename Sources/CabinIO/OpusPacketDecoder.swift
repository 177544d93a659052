import COpus

/// Opus packets to interleaved stereo floats at 48 kHz with libopus, with packet-loss
/// concealment: `conceal` makes up audio for a gap from the decoder's state.
///
/// The corresponding C functions are `opus_decoder_create`, `opus_decode_float` and
/// `opus_decoder_destroy`.
///
/// Thread: one thread at a time (not the render thread: it allocates).
public final class OpusPacketDecoder {
    /// Opus always decodes at 48 kHz.
    public static let sampleRate = 48_000.0
    /// The longest packet: 120 ms.
    public static let maximumPacketFrames = 5_760
    private let decoder: OpaquePointer
    private var scratch = [Float](repeating: 0, count: 2 * OpusPacketDecoder.maximumPacketFrames)

    /// A decoder giving two channels (a mono stream is duplicated).
    public init() throws(SystemError) {
        var error: Int32 = 0
        guard let decoder = opus_decoder_create(48_000, 2, &error), error == OPUS_OK else {
            throw SystemError(operation: "opus_decoder_create", code: 0, reason: String(cString: opus_strerror(error)))
        }
        self.decoder = decoder
    }

    deinit { opus_decoder_destroy(decoder) }

    /// Decodes one packet, appending its frames to `output`; returns the frame count.
    @discardableResult
    public func decode(_ packet: [UInt8], into output: inout [Float]) throws(SystemError) -> Int {
        let frames = packet.withUnsafeBufferPointer { p in
            scratch.withUnsafeMutableBufferPointer { s in
                opus_decode_float(decoder, p.baseAddress, Int32(p.count), s.baseAddress!, Int32(OpusPacketDecoder.maximumPacketFrames), 0)
            }
        }
        guard frames >= 0 else {
            throw SystemError(operation: "opus_decode_float", code: 0, reason: String(cString: opus_strerror(frames)))
        }
        output.append(contentsOf: scratch[0..<(2 * Int(frames))])
        return Int(frames)
    }

    /// Conceals a gap of `frames` (a multiple of 2.5 ms, at most 120 ms), appending the
    /// made-up frames to `output` (libopus PLC: `opus_decode_float` with no data).
    @discardableResult
    public func conceal(frames: Int, into output: inout [Float]) -> Int {
        let count = min(frames, OpusPacketDecoder.maximumPacketFrames) / 120 * 120
        guard count > 0 else { return 0 }
        let made = scratch.withUnsafeMutableBufferPointer { s in
            opus_decode_float(decoder, nil, 0, s.baseAddress!, Int32(count), 0)
        }
        guard made > 0 else { return 0 }
        output.append(contentsOf: scratch[0..<(2 * Int(made))])
        return Int(made)
    }
}
