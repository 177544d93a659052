import CVorbis

/// Vorbis packets to interleaved stereo floats with libvorbis: the three header packets
/// first (identification, comments, setup), then audio packets. A mono stream is duplicated;
/// more than two channels are folded to the first two.
///
/// The corresponding C functions are `vorbis_synthesis_headerin`, `vorbis_synthesis_init`,
/// `vorbis_synthesis`, `vorbis_synthesis_blockin` and `vorbis_synthesis_pcmout`.
///
/// Thread: one thread at a time (not the render thread: it allocates).
public final class VorbisPacketDecoder {
    private let info: UnsafeMutablePointer<vorbis_info>
    private let comment: UnsafeMutablePointer<vorbis_comment>
    private let dsp: UnsafeMutablePointer<vorbis_dsp_state>
    private let block: UnsafeMutablePointer<vorbis_block>
    private var headers = 0
    private var ready = false

    /// A decoder waiting for a stream's three header packets. The corresponding C functions
    /// are `vorbis_info_init` and `vorbis_comment_init`.
    public init() {
        info = .allocate(capacity: 1)
        comment = .allocate(capacity: 1)
        dsp = .allocate(capacity: 1)
        block = .allocate(capacity: 1)
        vorbis_info_init(info)
        vorbis_comment_init(comment)
    }

    deinit {
        if ready {
            vorbis_block_clear(block)
            vorbis_dsp_clear(dsp)
        }
        vorbis_comment_clear(comment)
        vorbis_info_clear(info)
        block.deallocate()
        dsp.deallocate()
        comment.deallocate()
        info.deallocate()
    }

    /// The stream's rate, once the identification header is read.
    public var sampleRate: Double { Double(info.pointee.rate) }
    /// True once all three headers are read.
    public var isReady: Bool { ready }

    /// Feeds one packet: a header while headers are expected, else audio, appending its
    /// frames to `output`. Returns the frames appended.
    @discardableResult
    public func decode(_ bytes: [UInt8], isBeginning: Bool, into output: inout [Float]) throws(SystemError) -> Int {
        var copy = bytes
        return try copy.withUnsafeMutableBufferPointer { (p: inout UnsafeMutableBufferPointer<UInt8>) throws(SystemError) -> Int in
            var packet = ogg_packet(packet: p.baseAddress, bytes: p.count, b_o_s: isBeginning ? 1 : 0, e_o_s: 0,
                                    granulepos: -1, packetno: Int64(headers))
            if !ready {
                let result = vorbis_synthesis_headerin(info, comment, &packet)
                guard result == 0 else {
                    throw SystemError(operation: "vorbis_synthesis_headerin", code: 0, reason: "not a Vorbis header (\(result))")
                }
                headers += 1
                if headers == 3 {
                    guard vorbis_synthesis_init(dsp, info) == 0 else {
                        throw SystemError(operation: "vorbis_synthesis_init", code: 0, reason: "bad Vorbis setup")
                    }
                    vorbis_block_init(dsp, block)
                    ready = true
                }
                return 0
            }
            guard vorbis_synthesis(block, &packet) == 0 else { return 0 }  // a bad packet is skipped
            vorbis_synthesis_blockin(dsp, block)
            var total = 0
            var pcm: UnsafeMutablePointer<UnsafeMutablePointer<Float>?>?
            let channels = Int(info.pointee.channels)
            while true {
                let frames = Int(vorbis_synthesis_pcmout(dsp, &pcm))
                guard frames > 0, let pcm else { break }
                let left = pcm[0]!, right = channels > 1 ? pcm[1]! : pcm[0]!
                for i in 0..<frames {
                    output.append(left[i])
                    output.append(right[i])
                }
                vorbis_synthesis_read(dsp, Int32(frames))
                total += frames
            }
            return total
        }
    }

    /// The comments (`TITLE=…`, `ARTIST=…`) once the comment header is read.
    public var comments: [String] {
        (0..<Int(comment.pointee.comments)).compactMap { i in
            guard let text = comment.pointee.user_comments[i] else { return nil }
            let length = Int(comment.pointee.comment_lengths[i])
            return String(decoding: UnsafeRawBufferPointer(start: text, count: length), as: UTF8.self)
        }
    }
}
