import CabinAudio
import Foundation
import Testing

/// Streams: frames a producer writes while the mixer plays them (`AudioStream`).
@Suite struct MixerStreamTests {
    /// Frame `i` of a test signal: never silent, every frame different within 65,536, exact
    /// in a Float (so any gain of 0 dB passes it through bit for bit).
    static func frame(_ i: Int) -> (Float, Float) {
        let x = Float((i & 0xFFFF) + 1) / 65_536
        return (x, -x / 2)
    }

    static func frames(_ range: Range<Int>) -> [Float] {
        range.flatMap { i -> [Float] in let (l, r) = frame(i); return [l, r] }
    }

    /// Plays `stream` as a one-shot at 0 dB (no fade-in) from frame `at`.
    static func oneShot(_ id: StreamID, at frame: FrameTime = 0) -> MixerCommand {
        MixerCommand(at: frame, .playOneShot(.stream(id), bus: BusID(index: 0), gain: 0))
    }

    /// Written between blocks as far as the ring has room (so it wraps many times), the stream
    /// plays every frame in order from the one-shot's exact frame, at any block size.
    @Test(arguments: [1, 7, 64, 512])
    func playsExactlyTheFramesWrittenInOrder(block: Int) {
        var config = Render.config()
        let (id, stream) = config.addStream(capacityFrames: 1_000)
        let (mixer, handle) = config.make()
        handle.send(Self.oneShot(id, at: 37))
        let total = 6_000
        let signal = Self.frames(0..<total)
        var written = 0, out: [Float] = [], buffer = [Float](repeating: 0, count: 2 * block)
        while out.count < 2 * (total + 37) {
            written += signal[(2 * written)...].withUnsafeBufferPointer { stream.write($0) }
            let n = min(block, total + 37 - out.count / 2)
            buffer.withUnsafeMutableBufferPointer { mixer.render(into: $0, frameCount: n) }
            out += buffer[..<(2 * n)]
        }
        #expect(out[..<74].allSatisfy { $0 == 0 })
        #expect(Array(out[74...]) == signal)
        #expect(stream.underflowFrames == 0)
        #expect(stream.playedFrames == total && stream.availableFrames == 0)
    }

    /// A producer that wrote ahead asks for a splice: the mixer plays the old frames up to
    /// the splice (and the rest of the block it is in), then goes on from the new frames at
    /// the matching offset — the new frames written from `to` continue frame `from` — so the
    /// output is the signal unbroken, at any block size.
    @Test(arguments: [1, 7, 64, 512])
    func spliceSkipsWhatTheProducerTookBack(block: Int) {
        var config = Render.config()
        let (id, stream) = config.addStream(capacityFrames: 4_000)
        let (mixer, handle) = config.make()
        handle.send(Self.oneShot(id))
        // 2500 frames queued ahead; the producer will take back those from 1200 on and write
        // them again (here the same, as a switch's crossfade starts from the outgoing sound).
        #expect(stream.write(Self.frames(0..<2_500)) == 2_500)
        let first = Render.run(mixer, frameCount: 1_000, blockSize: block)
        #expect(stream.splice(from: 1_200, to: 2_500))
        #expect(!stream.splice(from: 1_300, to: 2_500), "one splice at a time")
        // What continues frame 1200: the signal on from there.
        #expect(stream.write(Self.frames(1_200..<3_000)) == 1_800)
        let rest = Render.run(mixer, frameCount: 1_500, blockSize: block)
        #expect(first + rest == Self.frames(0..<2_500))
        #expect(!stream.isSplicePending)
        // It jumped: 2500 frames played, 1300 skipped.
        #expect(stream.playedFrames == 3_800 && stream.availableFrames == 500)
        #expect(stream.underflowFrames == 0)
    }

    /// A dry ring plays silence for exactly the missing frames and counts them; what is
    /// written later plays next, nothing skipped.
    @Test(arguments: [1, 7, 64, 512])
    func underflowPlaysSilenceAndCountsTheMissingFrames(block: Int) {
        var config = Render.config()
        let (id, stream) = config.addStream(capacityFrames: 2_000)
        let (mixer, handle) = config.make()
        handle.send(Self.oneShot(id))
        #expect(stream.write(Self.frames(0..<1_000)) == 1_000)
        let first = Render.run(mixer, frameCount: 1_500, blockSize: block)
        #expect(Array(first[..<2_000]) == Self.frames(0..<1_000))
        #expect(first[2_000...].allSatisfy { $0 == 0 })
        #expect(stream.underflowFrames == 500)

        #expect(stream.write(Self.frames(1_000..<3_500)) == 2_000)  // the ring takes what fits
        let second = Render.run(mixer, frameCount: 2_300, blockSize: block)
        #expect(Array(second[..<4_000]) == Self.frames(1_000..<3_000))
        #expect(second[4_000...].allSatisfy { $0 == 0 })
        #expect(stream.underflowFrames == 800)
        #expect(stream.playedFrames == 3_000)
    }

    /// A producer thread writing chunks of any size into a small ring while the mixer
    /// renders: every frame arrives, in order; the only silence is the counted underflow.
    @Test func producerThreadDeliversEveryFrameInOrder() async {
        var config = Render.config()
        let (id, stream) = config.addStream(capacityFrames: 1_024)
        let (mixer, handle) = config.make()
        handle.send(Self.oneShot(id))
        let total = 200_000
        let signal = Self.frames(0..<total)
        let producer = Thread {
            var written = 0, chunk = 1
            let deadline = Date().addingTimeInterval(20)
            while written < total && Date() < deadline {
                chunk = chunk * 7 % 701 + 1  // 1…701 frames
                let end = min(total, written + chunk)
                let n = signal[(2 * written)..<(2 * end)].withUnsafeBufferPointer { stream.write($0) }
                written += n
                if n == 0 { usleep(50) }
            }
        }
        producer.start()
        var heard: [Float] = [], silent = 0
        heard.reserveCapacity(2 * total)
        var buffer = [Float](repeating: 0, count: 2 * 256)
        let deadline = Date().addingTimeInterval(20)
        while stream.playedFrames < total && Date() < deadline {
            if stream.availableFrames == 0 {
                usleep(50)
                continue
            }
            let n = 1 + (heard.count / 2 + silent) % 256
            buffer.withUnsafeMutableBufferPointer { mixer.render(into: $0, frameCount: n) }
            for i in 0..<n {
                if buffer[2 * i] == 0 && buffer[2 * i + 1] == 0 { silent += 1 } else { heard += buffer[(2 * i)...(2 * i + 1)] }
            }
        }
        #expect(stream.playedFrames == total)
        #expect(heard == signal)
        #expect(silent == stream.underflowFrames)
    }

    /// A stream voice is a voice like any other: the same frames as a stream or as an asset
    /// played at rate 1 come out bit-identical through gain, fade-in, fades, ducking, a
    /// restart over its own fade-out and a fade-out; the stream moves on only while it plays.
    @Test func gainsFadesAndDuckingApplyAsToAnAsset() {
        let total = 20_000
        let signal = Self.frames(0..<total)
        func render(_ source: (inout MixerConfig) -> SoundSource) -> [Float] {
            var config = Render.config(buses: [("music", -3), ("voice", 0)])
            config.ducking = [DuckingRule(when: BusID(index: 1), duck: [BusID(index: 0)], depth: -9,
                                          attackDuration: 0.01, releaseDuration: 0.05)]
            let beep = config.addAsset(AudioBuffer(samples: [Float](repeating: 0.01, count: 3_000), channelCount: 1,
                                                   sampleRate: 48_000))
            let layer = config.addLayer(LayerConfig(name: "music", bus: BusID(index: 0), source: source(&config), gain: -6))
            return Render.scene(config, commands: [
                MixerCommand(at: 0, .startLayer(layer, fadeInFrames: 1_000)),
                MixerCommand(at: 2_500, .fadeLayer(layer, to: -12, overFrames: 3_000)),
                MixerCommand(at: 7_000, .playOneShot(.asset(beep), bus: BusID(index: 1), gain: 0)),
                MixerCommand(at: 12_000, .fadeLayer(layer, to: 0, overFrames: 500)),
                MixerCommand(at: 16_000, .stopLayer(layer, fadeOutFrames: 2_000)),
            ], frameCount: total, blockSize: 333)
        }
        var stream: AudioStream?
        let streamed = render { config in
            let (id, s) = config.addStream(capacityFrames: total)
            s.write(signal)
            stream = s
            return .stream(id)
        }
        let asset = render { config in
            .asset(config.addAsset(AudioBuffer(samples: signal, channelCount: 2, sampleRate: 48_000)))
        }
        #expect(streamed == asset)
        #expect(streamed[(2 * 16_500)...].contains { $0 != 0 })
        #expect(streamed[(2 * 18_000)...].allSatisfy { $0 == 0 })
        #expect(stream?.playedFrames == 18_000)  // started at 0, faded out over 2,000 from 16,000
        #expect(stream?.underflowFrames == 0)
    }

    /// A layer restarted over its own fade-out: both voices hear the same frames (the
    /// stream is read once), so a linear crossfade of the two gives the signal back.
    @Test func voicesPlayingOneStreamHearTheSameFrames() {
        var config = Render.config()
        let (id, stream) = config.addStream(capacityFrames: 10_000)
        let layer = config.addLayer(LayerConfig(name: "radio", bus: BusID(index: 0), source: .stream(id)))
        stream.write(Self.frames(0..<10_000))
        let out = Render.scene(config, commands: [
            MixerCommand(at: 0, .startLayer(layer, fadeInFrames: 240)),
            MixerCommand(at: 1_000, .startLayer(layer, fadeInFrames: 2_000)),
        ], frameCount: 4_000, blockSize: 100)
        let signal = Self.frames(0..<4_000)
        for i in 600..<8_000 { #expect(abs(out[i] - signal[i]) < 1e-6, "sample \(i)") }
        #expect(stream.playedFrames == 4_000)
    }

    /// A stream voice never ends by itself, even with nothing written: silence, counted.
    @Test func aStreamNeverEndsByItself() {
        var config = Render.config()
        let (id, stream) = config.addStream(capacityFrames: 16)
        let (mixer, handle) = config.make()
        handle.send(Self.oneShot(id))
        _ = Render.run(mixer, frameCount: 48_000, blockSize: 512)
        #expect(handle.counters.activeVoices == 1)
        #expect(stream.underflowFrames == 48_000)
        #expect(stream.write(Self.frames(0..<20)) == 16)
        #expect(Render.run(mixer, frameCount: 16, blockSize: 16) == Self.frames(0..<16))
    }
}
