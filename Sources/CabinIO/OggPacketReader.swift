import COgg

/// Ogg pages to packets with libogg, fed bytes as they arrive (a network stream): finds page
/// boundaries (skipping garbage between pages), checks page CRCs, and follows chained
/// streams — a page that begins a new logical stream (a new serial number) starts it afresh.
///
/// ```swift
/// let reader = OggPacketReader()
/// reader.feed(bytes)
/// while let packet = reader.nextPacket() { decode(packet) }
/// ```
///
/// The corresponding C functions are `ogg_sync_buffer`, `ogg_sync_wrote`,
/// `ogg_sync_pageout`, `ogg_stream_reset_serialno`, `ogg_stream_pagein` and
/// `ogg_stream_packetout`.
///
/// Thread: one thread at a time (not the render thread).
public final class OggPacketReader {
    /// One packet of a logical stream.
    public struct Packet: Sendable {
        /// The packet's contents (for the codec's decoder).
        public var bytes: [UInt8]
        /// The first packet of a logical stream (its identification header).
        public var isBeginning: Bool
        /// The last packet of its logical stream (libogg's `e_o_s`).
        public var isEnd: Bool
        /// The serial number of the logical stream it belongs to (a new one: a chained stream).
        public var serial: Int32
        /// The granule position of the page that ends here (−1 when none ends here).
        public var granulePosition: Int64
    }

    private let sync: UnsafeMutablePointer<ogg_sync_state>
    private let stream: UnsafeMutablePointer<ogg_stream_state>
    private var hasStream = false
    private var newStream = false
    /// Pages read so far.
    public private(set) var pageCount = 0
    /// Bytes skipped looking for pages (garbage, truncated pages, bad CRCs).
    public private(set) var skippedBytes = 0

    /// A reader with nothing fed yet.
    public init() {
        sync = .allocate(capacity: 1)
        stream = .allocate(capacity: 1)
        ogg_sync_init(sync)
        ogg_stream_init(stream, 0)
    }

    deinit {
        ogg_stream_clear(stream)
        ogg_sync_clear(sync)
        stream.deallocate()
        sync.deallocate()
    }

    /// Adds bytes of the stream.
    public func feed(_ bytes: [UInt8]) {
        guard !bytes.isEmpty, let buffer = ogg_sync_buffer(sync, bytes.count) else { return }
        bytes.withUnsafeBytes { UnsafeMutableRawPointer(buffer).copyMemory(from: $0.baseAddress!, byteCount: bytes.count) }
        ogg_sync_wrote(sync, bytes.count)
    }

    /// The next whole packet, or nil when more bytes are needed.
    public func nextPacket() -> Packet? {
        var packet = ogg_packet()
        while true {
            if hasStream && ogg_stream_packetout(stream, &packet) == 1 {
                let bytes = Array(UnsafeBufferPointer(start: packet.packet, count: packet.bytes))
                let beginning = newStream
                newStream = false
                return Packet(bytes: bytes, isBeginning: beginning || packet.b_o_s != 0, isEnd: packet.e_o_s != 0,
                              serial: Int32(stream.pointee.serialno), granulePosition: packet.granulepos)
            }
            var page = ogg_page()
            let result = ogg_sync_pageout(sync, &page)
            if result < 0 { skippedBytes += 1; continue }  // lost sync: libogg skips to the next capture pattern
            if result == 0 { return nil }
            pageCount += 1
            let serial = ogg_page_serialno(&page)
            if ogg_page_bos(&page) != 0 || !hasStream || serial != Int32(stream.pointee.serialno) {
                ogg_stream_reset_serialno(stream, serial)
                hasStream = true
                newStream = ogg_page_bos(&page) != 0
            }
            ogg_stream_pagein(stream, &page)
        }
    }
}
