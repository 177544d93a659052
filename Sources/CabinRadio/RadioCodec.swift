import CabinIO

/// Audio decoded as it arrives: Ogg (Opus or Vorbis) or MP3, to interleaved stereo floats at
/// the codec's rate, with the titles found in its own metadata.
///
/// Thread: the station's thread only.
package protocol RadioCodec: AnyObject {
    /// "Ogg Opus", "Ogg Vorbis", "MP3" (the Ogg codec is known after the first packet).
    var name: String { get }
    /// The decoded audio's rate (0 until known).
    var sampleRate: Double { get }
    /// Decodes `bytes`, appending frames to `output`; returns new titles.
    func decode(_ bytes: [UInt8], into output: inout [Float]) throws(RadioFailure) -> [String]
    /// Made-up frames for a gap (Opus PLC); 0 when the codec cannot conceal.
    func conceal(frames: Int, into output: inout [Float]) -> Int
}

/// Ogg Opus and Ogg Vorbis through libogg: each chained stream (a new serial on a
/// beginning-of-stream page) gets a fresh decoder at once, with no gap; Opus honours the
/// header's pre-skip and output gain.
package final class OggRadioCodec: RadioCodec {
    private enum Chain {
        case none
        case opus(OpusPacketDecoder, header: OpusHeader, packets: Int, skip: Int)
        case vorbis(VorbisPacketDecoder, packets: Int)
    }

    private let reader = OggPacketReader()
    private var chain = Chain.none
    private var fed = 0
    package private(set) var name = "Ogg"
    package private(set) var sampleRate = 0.0

    package init() {}

    package func decode(_ bytes: [UInt8], into output: inout [Float]) throws(RadioFailure) -> [String] {
        reader.feed(bytes)
        fed += bytes.count
        var titles: [String] = []
        while let packet = reader.nextPacket() {
            if packet.isBeginning { try begin(packet) ; continue }
            switch chain {
            case .none: continue
            case .opus(let decoder, let header, let packets, var skip):
                if packets == 1 {  // OpusTags
                    if let title = VorbisComments.title(VorbisComments.parse(packet.bytes, after: Array("OpusTags".utf8))) {
                        titles.append(title)
                    }
                    chain = .opus(decoder, header: header, packets: 2, skip: skip)
                    continue
                }
                var frames: [Float] = []
                do { try decoder.decode(packet.bytes, into: &frames) } catch { continue }  // a damaged packet is skipped
                if skip > 0 {
                    let dropped = min(skip, frames.count / 2)
                    frames.removeFirst(2 * dropped)
                    skip -= dropped
                }
                if header.gain != 1 { for i in frames.indices { frames[i] *= header.gain } }
                output.append(contentsOf: frames)
                chain = .opus(decoder, header: header, packets: packets + 1, skip: skip)
            case .vorbis(let decoder, let packets):
                do { try decoder.decode(packet.bytes, isBeginning: false, into: &output) } catch {
                    throw RadioFailure(description: "a damaged Vorbis header: \(error)")
                }
                if packets == 1, let title = VorbisComments.title(decoder.comments) { titles.append(title) }
                chain = .vorbis(decoder, packets: packets + 1)
            }
        }
        if reader.pageCount == 0 && fed > 65_536 {
            throw RadioFailure(description: "no Ogg page in the first 64 KB: not an Ogg stream")
        }
        return titles
    }

    private func begin(_ packet: OggPacketReader.Packet) throws(RadioFailure) {
        let bytes = packet.bytes
        if bytes.starts(with: Array("OpusHead".utf8)) {
            guard let header = OpusHeader(bytes) else { throw RadioFailure(description: "a damaged Opus header") }
            guard header.mappingFamily == 0 else {
                throw RadioFailure(description: "Opus with \(header.channels) channels (mapping family \(header.mappingFamily)) is not supported: mono and stereo are")
            }
            let decoder: OpusPacketDecoder
            do { decoder = try OpusPacketDecoder() } catch { throw RadioFailure(description: "\(error)") }
            chain = .opus(decoder, header: header, packets: 1, skip: header.preSkip)
            (name, sampleRate) = ("Ogg Opus", OpusPacketDecoder.sampleRate)
        } else if bytes.count > 7 && bytes[0] == 1 && bytes[1...6].elementsEqual("vorbis".utf8) {
            let decoder = VorbisPacketDecoder()
            var none: [Float] = []
            do { try decoder.decode(bytes, isBeginning: true, into: &none) } catch {
                throw RadioFailure(description: "a damaged Vorbis header: \(error)")
            }
            chain = .vorbis(decoder, packets: 1)
            (name, sampleRate) = ("Ogg Vorbis", decoder.sampleRate)
        } else {
            let what = bytes.starts(with: Array("\u{7F}FLAC".utf8)) ? "Ogg FLAC"
                : bytes.starts(with: Array("Speex".utf8)) ? "Ogg Speex" : "this Ogg codec"
            throw RadioFailure(description: "\(what) is not supported: stations in Ogg Opus, MP3 or Ogg Vorbis are")
        }
    }

    package func conceal(frames: Int, into output: inout [Float]) -> Int {
        guard case .opus(let decoder, _, _, _) = chain else { return 0 }
        return decoder.conceal(frames: frames, into: &output)
    }
}

/// MP3 through libmpg123's feed API, in the stream's first format only (garbage in a stream
/// resyncs on false headers of every rate; their frames are dropped).
package final class MP3RadioCodec: RadioCodec {
    private let decoder: MP3FeedDecoder
    private var fed = 0
    package let name = "MP3"
    package var sampleRate: Double { decoder.sampleRate }

    package init() throws(RadioFailure) {
        do { decoder = try MP3FeedDecoder(keepingFirstFormat: true) } catch { throw RadioFailure(description: "\(error)") }
    }

    package func decode(_ bytes: [UInt8], into output: inout [Float]) throws(RadioFailure) -> [String] {
        fed += bytes.count
        do { try decoder.decode(bytes, into: &output) } catch {
            if decoder.decodedFrames == 0 { throw RadioFailure(description: "not MP3 audio: \(error)") }
        }
        if decoder.decodedFrames == 0 && fed > 65_536 {
            throw RadioFailure(description: "no MP3 frame in the first 64 KB: not an MP3 stream")
        }
        return []
    }

    package func conceal(frames: Int, into output: inout [Float]) -> Int { 0 }
}
