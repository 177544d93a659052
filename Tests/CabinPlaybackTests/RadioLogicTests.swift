import CabinPlayback
import CabinRadio
import CabinSession
import Testing

/// The pure parts of network radio: ICY metadata, format detection, backoff, the buffer's
/// live-stream policy, Opus and Vorbis headers, station references in documents.
struct RadioLogicTests {
    /// An ICY stream: `interval` audio bytes, a metadata block, … in any chunking.
    @Test(arguments: [1, 3, 7, 16, 1000])
    func icyMetadataIsTakenOutOfTheAudio(chunk: Int) {
        let interval = 16
        let audio = (0..<80).map { UInt8($0) }
        let title = "Rock 'n' Roll - Don't Stop"
        var block = Array("StreamTitle='\(title)';StreamUrl='';".utf8)
        let blocks = (block.count + 15) / 16
        block += [UInt8](repeating: 0, count: blocks * 16 - block.count)
        var stream: [UInt8] = []
        for (i, start) in stride(from: 0, to: audio.count, by: interval).enumerated() {
            stream += audio[start..<min(audio.count, start + interval)]
            if start + interval <= audio.count {
                stream += i == 1 ? [UInt8(blocks)] + block : [0]
            }
        }
        var reader = ICYStreamReader(metaInterval: interval)
        var out: [UInt8] = [], titles: [String] = []
        for start in stride(from: 0, to: stream.count, by: chunk) {
            let (a, t) = reader.split(Array(stream[start..<min(stream.count, start + chunk)]))
            out += a
            titles += t
        }
        #expect(out == audio)
        #expect(titles == [title])
    }

    @Test func icyHeadersNameTheStationAndInterval() {
        let headers = ["ICY 200 OK", "icy-name: Test FM", "icy-metaint:8192", "Content-Type: audio/mpeg"]
        #expect(ICYStreamReader.metaInterval(headers) == 8192)
        #expect(ICYStreamReader.stationName(headers) == "Test FM")
        #expect(ICYStreamReader.stationName(["HTTP/1.0 200 OK", "ice-name: Ice"]) == "Ice")
        #expect(ICYStreamReader.metaInterval(["icy-metaint: -5"]) == nil)
        var plain = ICYStreamReader(metaInterval: nil)
        #expect(plain.split([1, 2, 3]).audio == [1, 2, 3])
    }

    @Test func formatIsDetectedFromBytesAndType() {
        let pad = [UInt8](repeating: 0x55, count: 16)
        #expect(RadioFormat.detect(contentType: "audio/mpeg", head: Array("OggS".utf8) + pad) == .format(.ogg))
        #expect(RadioFormat.detect(contentType: nil, head: Array("ID3".utf8) + pad) == .format(.mp3))
        #expect(RadioFormat.detect(contentType: nil, head: [0xFF, 0xFB] + pad) == .format(.mp3))
        #expect(RadioFormat.detect(contentType: "audio/mpeg", head: Array(pad.prefix(4))) == nil)
        guard case .notPlayable(let html)? = RadioFormat.detect(contentType: "text/html; charset=utf-8", head: Array("<p>".utf8)),
              case .notPlayable(let aac)? = RadioFormat.detect(contentType: "audio/aacp", head: pad),
              case .notPlayable(let other)? = RadioFormat.detect(contentType: "application/octet-stream", head: pad),
              case .notPlayable(let empty)? = RadioFormat.detect(contentType: "audio/mpeg", head: [], isComplete: true)
        else { Issue.record("every bad stream gets a reason"); return }
        #expect(html.contains("HTML page"))
        #expect(aac.contains("(AAC) is not supported"))
        #expect(other.contains("not an audio stream (content type application/octet-stream"))
        #expect(empty.contains("no audio"))
    }

    @Test func backoffDoublesFromOneSecondToThirty() {
        var backoff = ReconnectBackoff()
        #expect((0..<8).map { _ in backoff.next() } == [1, 2, 4, 8, 16, 30, 30, 30])
        backoff.reset()
        #expect(backoff.next() == 1)
    }

    /// A ring the test drains by hand.
    final class Ring: RadioRing {
        var frames: [Float] = []
        let capacity: Int
        init(capacity: Int) { self.capacity = capacity }
        var availableFrames: Int { frames.count / 2 }
        func write(_ f: UnsafeBufferPointer<Float>) -> Int {
            let n = min(f.count / 2, capacity - availableFrames)
            frames += f.prefix(2 * n)
            return n
        }
        func drain(_ n: Int) -> [Float] {
            let out = Array(frames.prefix(2 * n))
            frames.removeFirst(min(frames.count, 2 * n))
            return out
        }
    }

    @Test func bufferStartsAtHighWaterFadesInAndFadesOutWhenStarved() {
        let rate = 1000.0
        var buffer = RadioBuffer(sampleRate: rate)
        let ring = Ring(capacity: 10_000)
        let ones = [Float](repeating: 1, count: 2 * 600)
        buffer.append(ones)
        #expect(buffer.step(ring) { _ in [] } == nil)
        #expect(ring.availableFrames == 0)  // below 1 s: nothing plays yet
        buffer.append(ones)
        #expect(buffer.step(ring) { _ in [] } == .started)
        #expect(ring.availableFrames == 1200 - 20)  // all but the 20 ms held back
        #expect(ring.frames[0] < 0.1 && ring.frames[2 * 19] > 0.99 && ring.frames[2 * 19] <= 1)  // an equal-power fade-in
        _ = ring.drain(1100)
        #expect(buffer.step(ring) { _ in [] } == .starved)  // 80 ms left, nothing new: fade out
        let tail = ring.drain(1000)
        #expect(tail.count == 2 * 100)
        #expect(tail[2 * 79] == 1)
        #expect(tail[2 * 99] < 0.05)  // the last frame is faded nearly to silence
        #expect(buffer.state == .buffering)
    }

    /// A reconnection faster than the ring runs dry: the old connection fades out at its last
    /// frame, the new one fades in right after it, and the step says `.resumed` (the station
    /// reports playing again) without buffering.
    @Test func reconnectionWhileTheRingPlaysIsSplicedWithFades() {
        var buffer = RadioBuffer(sampleRate: 1000)
        let ring = Ring(capacity: 10_000)
        buffer.append([Float](repeating: 1, count: 2 * 1000))
        #expect(buffer.step(ring) { _ in [] } == .started)
        _ = ring.drain(500)
        buffer.connectionEnded(ring)
        #expect(ring.availableFrames == 500)  // everything, the held-back 20 ms included
        #expect(ring.frames[2 * 470] == 1 && ring.frames[2 * 499] < 0.05)  // faded out at its end
        #expect(buffer.step(ring) { _ in [] } == nil)  // nothing new yet; the ring still plays
        buffer.append([Float](repeating: 1, count: 2 * 300))
        #expect(buffer.step(ring) { _ in [] } == .resumed)
        #expect(buffer.state == .playing)
        let new = Array(ring.frames.dropFirst(2 * 500))
        #expect(new.count == 2 * 280)
        #expect(new[0] < 0.1 && new[2 * 19] > 0.99 && new[2 * 40] == 1)  // faded in
        buffer.append([Float](repeating: 1, count: 2 * 100))
        #expect(buffer.step(ring) { _ in [] } == nil)  // said once
    }

    /// A connection that ends while still buffering leaves nothing stale behind.
    @Test func connectionEndedWhileBufferingDropsTheStaleAudio() {
        var buffer = RadioBuffer(sampleRate: 1000)
        let ring = Ring(capacity: 10_000)
        buffer.append([Float](repeating: 1, count: 2 * 600))
        buffer.connectionEnded(ring)
        #expect(buffer.pendingFrames == 0 && ring.availableFrames == 0 && buffer.state == .buffering)
    }

    @Test func unheardStreamStaysAtTheLiveEdge() {
        var buffer = RadioBuffer(sampleRate: 1000)
        let ring = Ring(capacity: 10_000)
        buffer.append((0..<3000).flatMap { [Float($0), Float($0)] })
        #expect(buffer.step(ring, isHeard: false) { _ in [] } == nil)
        #expect(ring.availableFrames == 0 && buffer.pendingFrames == 1100)
        #expect(buffer.step(ring) { _ in [] } == .started)
        #expect(ring.frames[2 * 50] == 1950)  // the newest 1.1 s, past the fade-in
    }

    @Test func concealmentFillsAShortGapThenFades() {
        let rate = 1000.0
        var buffer = RadioBuffer(sampleRate: rate)
        let ring = Ring(capacity: 10_000)
        buffer.append([Float](repeating: 1, count: 2 * 1000))
        #expect(buffer.step(ring) { _ in [] } == .started)
        _ = ring.drain(900)
        var concealed = 0
        var steps = 0
        var transition: RadioBuffer.Transition?
        while transition == nil && steps < 100 {
            transition = buffer.step(ring) { frames in
                concealed += frames
                return [Float](repeating: 0.5, count: 2 * frames)
            }
            _ = ring.drain(20)
            steps += 1
        }
        #expect(transition == .starved)
        #expect(concealed == 200)  // 0.2 s of concealment at most, then the fade
    }

    @Test func opusHeaderAndCommentsAreRead() throws {
        var head = Array("OpusHead".utf8) + [1, 2]
        head += [0x38, 0x01]  // pre-skip 312
        head += [0x80, 0xBB, 0, 0]  // 48 kHz
        head += [0x00, 0x06]  // +6 dB in Q7.8
        head += [0]
        let header = try #require(OpusHeader(head))
        #expect(header.channels == 2 && header.preSkip == 312 && header.mappingFamily == 0)
        #expect(abs(header.gain - 1.9953) < 0.001)
        func le(_ n: Int) -> [UInt8] { [UInt8(n & 255), UInt8(n >> 8 & 255), 0, 0] }
        let comments = ["ARTIST=Band", "title=Song"]
        var tags = Array("OpusTags".utf8) + le(3) + Array("enc".utf8) + le(comments.count)
        for c in comments { tags += le(c.utf8.count) + Array(c.utf8) }
        let parsed = VorbisComments.parse(tags, after: Array("OpusTags".utf8))
        #expect(parsed == comments)
        #expect(VorbisComments.title(parsed) == "Band - Song")
        #expect(VorbisComments.parse(Array(tags.prefix(20)), after: Array("OpusTags".utf8)).isEmpty)
    }

    @Test func stationsAreSoundsOfDocuments() throws {
        #expect(SoundReferenceParser.parse("https://radio.example/live.mp3") == .success(.station("https://radio.example/live.mp3")))
        #expect(SoundReferenceParser.parse("HTTP://127.0.0.1:8000/a") == .success(.station("HTTP://127.0.0.1:8000/a")))
        guard case .failure(let problem) = SoundReferenceParser.parse("http:///nohost") else {
            Issue.record("a URL without a host is an error"); return
        }
        #expect(problem.rule == "session.sound-url")
        let json = """
            { "cabin": 1, "duration": "10s",
              "layers": { "radio": { "bus": "radio", "sound": "http://127.0.0.1:1/live.opus", "loop": true },
                          "rain": { "bus": "ambient", "sound": "synth:pink-noise", "loop": true } },
              "cues": [ { "at": 0, "start": ["radio", "rain"] },
                        { "at": "5s", "crossfade": "rain", "to": "http://127.0.0.1:1/other", "over": "1s" } ] }
            """
        let doc = try #require(SessionReader.read(json, file: "radio.json").document)
        #expect(doc.stations == ["http://127.0.0.1:1/live.opus", "http://127.0.0.1:1/other"])
        #expect(doc.soundsToLoad.isEmpty)
        let fallback = doc.replacingStations(with: .library("radio/lofi"))
        #expect(fallback.stations.isEmpty)
        #expect(fallback.layers.first { $0.name == "radio" }?.sound == .library("radio/lofi"))
        // Written back as it was read.
        #expect(SessionReader.read(doc.json(), file: "again.json").document?.stations == doc.stations)
        // The compiler gives each station one stream, shared by every layer and cue playing it.
        let compiled = SessionCompiler.compile(doc, sounds: ResolvedSounds(), sampleRate: 48000)
        #expect(compiled.stations.map(\.url) == doc.stations)
        #expect(compiled.config.streams.count == 2)
    }

    @Test func aSessionPlaysAtMostEightStations() throws {
        let layers = (0..<9).map { #""s\#($0)": { "bus": "radio", "sound": "http://127.0.0.1:1/\#($0)" }"# }
        let json = #"{ "cabin": 1, "duration": "1s", "layers": { \#(layers.joined(separator: ", ")) } }"#
        let doc = try #require(SessionReader.read(json, file: "many.json").document)
        let compiled = SessionCompiler.compile(doc, sounds: ResolvedSounds(), sampleRate: 48000)
        #expect(compiled.stations.count == 8)
        #expect(compiled.warnings.count == 1 && compiled.warnings[0].contains("at most 8 live streams"))
    }
}
