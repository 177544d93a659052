import CabinAudio
import CabinIO
import CabinPlayback
import CabinSession
import Glibc

/// A playlist as one endless run of frames at the session's rate: tracks in order or
/// shuffled (seeded; every track once before any repeats), each at the reference loudness
/// (ReplayGain/R128 tags, else measured with libebur128), joined gaplessly (sample to
/// sample) or with an equal-power crossfade, and switched on request (`skip(by:)`) with an
/// equal-power crossfade. Unplayable tracks are skipped with one line each.
///
/// Deterministic: the frames depend only on the playlist, its options and when `skip` is
/// called (in frames produced), never on how many frames each `produce` asks for — so an
/// offline render is the same bits at every block size.
///
/// Thread: one thread at a time (the playlist's thread, or the offline renderer's); not the
/// render thread (it decodes and allocates).
package final class PlaylistFeeder {
    /// Something to report, heard once the stream has played `frame` frames.
    struct Note {
        var frame: Int
        var event: RadioEvent
    }

    let name: String
    let entries: [PlaylistSource.Entry]
    let options: PlaylistOptions
    let sampleRate: Double
    let referenceLoudness: Double
    /// Frames the end of a track overlaps the next.
    let crossfadeFrames: Int
    /// Frames a switch (`skip`) crossfades over.
    let switchFrames: Int
    /// Seconds a switch crossfades over.
    static let switchSeconds = 1.0

    private var sequence: [Int] = []
    private var passes = 0
    private(set) var cursor = -1
    private var unplayable = Set<Int>()
    private var gains: [Int: Double] = [:]
    private var probe: (index: Int, probe: LoudnessProbe)?
    private var current: (any PlaylistPlayable)?
    /// Whether station URLs play (live); offline they are skipped (no fixed content).
    let playsStations: Bool
    /// Live: a track whose gain is not known when it starts is measured while it decodes
    /// ahead (`ProgressiveGain`); offline (false) it is measured over the whole file first,
    /// as the render has time for.
    let measuresWhileDecoding: Bool
    /// The outgoing sound of a transition (interleaved) and how far it has played.
    private var tail: [Float] = []
    private var tailFrame = 0
    /// Frames into the incoming track's fade-in (it lasts as long as the tail).
    private var fadeFrame = 0
    private(set) var produced = 0
    private(set) var isFinished = false
    /// Live: how many of the last frames produced are kept, so a switch can start from what
    /// the listener hears rather than after what is queued (`skip(by:rewindingTo:)`).
    var historyFrames = 0
    /// The last frames produced (interleaved), at most `historyFrames` (+ as many again).
    private var history: [Float] = []
    var notes: [Note] = []
    /// The title of the track playing (as of the frames produced).
    private(set) var title: String?

    package init(name: String, entries: [PlaylistSource.Entry], options: PlaylistOptions, sampleRate: Double,
         referenceLoudness: Double = -23, playsStations: Bool = false, measuresWhileDecoding: Bool? = nil) {
        self.name = name
        self.playsStations = playsStations
        self.measuresWhileDecoding = measuresWhileDecoding ?? playsStations
        self.entries = entries
        self.options = options
        self.sampleRate = sampleRate
        self.referenceLoudness = referenceLoudness
        crossfadeFrames = Int((options.crossfadeSeconds * sampleRate).rounded())
        switchFrames = Int((Self.switchSeconds * sampleRate).rounded())
        if entries.isEmpty {
            isFinished = true
            notes.append(Note(frame: 0, event: .error(url: name, message: "the playlist has no tracks")))
        }
    }

    /// A track's title when its file has no title tag: its file name without the extension.
    static func title(of entry: PlaylistSource.Entry) -> String {
        switch entry {
        case .station(let url), .refused(let url, _): return url
        case .file(let path):
            let file = path.split(separator: "/").last.map(String.init) ?? path
            guard let dot = file.lastIndex(of: "."), dot != file.startIndex else { return file }
            return String(file[..<dot])
        }
    }

    /// Makes sure `sequence[index]` exists (a new pass when the last is used up); false
    /// past the end of a playlist that does not repeat.
    private func extendSequence(to index: Int) -> Bool {
        while sequence.count <= index {
            guard passes == 0 || options.repeats else { return false }
            var order = Array(entries.indices)
            if options.shuffle {
                var random = SeededRandom(seed: options.seed).derived(UInt64(passes))
                for i in stride(from: order.count - 1, to: 0, by: -1) { order.swapAt(i, random.int(0...i)) }
                // A new pass never starts with the track the last one ended on.
                if order.count > 1, let last = sequence.last, order[0] == last { order.swapAt(0, random.int(1...(order.count - 1))) }
            }
            sequence += order
            passes += 1
        }
        return true
    }

    /// The gain (dB) that brings entry `index` to the reference loudness, if known before it
    /// plays: from its tags, measured ahead of need (`prepareNext`) or when it last played
    /// to its end; else, offline, measured now over the whole file; live, nil (measured while
    /// it decodes ahead: `ProgressiveGain`, so it starts at once).
    private func gain(for index: Int, path: String) -> Double? {
        if let known = gains[index] { return known }
        let tags = TrackGainTags.read(path, referenceLoudness: referenceLoudness)
        var gain: Double
        if let tagged = options.gainMode == .album ? (tags.album ?? tags.track) : (tags.track ?? tags.album) {
            gain = tagged
        } else {
            if measuresWhileDecoding && !(probe?.index == index && probe!.probe.isDone) {
                if probe?.index == index { probe = nil }
                return nil
            }
            let measured = (probe?.index == index ? probe!.probe : LoudnessProbe(path: path)).finish()
            if probe?.index == index { probe = nil }
            gain = measured.map { referenceLoudness - $0 } ?? 0
        }
        gain = min(max(gain, -30), 24)
        gains[index] = gain
        return gain
    }

    /// Measures the next track's loudness a step at a time while this one plays, when it has
    /// no tags (call between productions; `steps` chunks at most).
    func prepareNext(steps: Int) {
        guard !isFinished, extendSequence(to: cursor + 1) else { return }
        let index = sequence[cursor + 1]
        guard gains[index] == nil, !unplayable.contains(index), case .file(let path) = entries[index] else { return }
        if probe?.index != index {
            let tags = TrackGainTags.read(path, referenceLoudness: referenceLoudness)
            if tags.track != nil || tags.album != nil { _ = gain(for: index, path: path); return }
            probe = (index, LoudnessProbe(path: path))
        }
        for _ in 0..<steps where probe?.probe.step() == false {}
    }

    /// Opens the track at `sequence[position]`, moving by `step` past unplayable ones;
    /// false when none is left.
    private func open(at position: Int, step: Int, frame: Int) -> Bool {
        var position = position
        var tried = 0
        while position >= 0, extendSequence(to: position), tried <= entries.count {
            let index = sequence[position]
            tried += 1
            if unplayable.contains(index) { position += step; continue }
            switch entries[index] {
            case .refused(let entry, let reason):
                unplayable.insert(index)
                notes.append(Note(frame: frame, event: .skipped(url: name, message: "\(entry): \(reason)")))
            case .station(let url) where !playsStations:
                unplayable.insert(index)
                notes.append(Note(frame: frame, event: .skipped(url: name, message: "\(url): a live station has no fixed content to render")))
            case .station(let url):
                do {
                    current = try StationTrack(url: url, sampleRate: sampleRate)
                    cursor = position
                    title = url
                    notes.append(Note(frame: frame, event: .title(url: name, title: url)))
                    return true
                } catch {
                    notes.append(Note(frame: frame, event: .skipped(url: name, message: "\(url): \(error)")))
                }
            case .file(let path):
                do {
                    let track = try PlaylistTrack(path: path, sampleRate: sampleRate, gainDecibels: gain(for: index, path: path),
                                                  referenceLoudness: referenceLoudness)
                    current = track
                    cursor = position
                    // A tag or a file name: one line, at most 256 characters (see `singleLine`).
                    title = (track.taggedTitle ?? Self.title(of: entries[index])).singleLine()
                    notes.append(Note(frame: frame, event: .title(url: name, title: title!)))
                    return true
                } catch {
                    unplayable.insert(index)
                    notes.append(Note(frame: frame, event: .skipped(url: name, message: error.description)))
                }
            }
            if unplayable.count == entries.count {
                notes.append(Note(frame: frame, event: .error(url: name, message: "no track of the playlist can be played")))
                break
            }
            position += step
        }
        return false
    }

    /// Switches to the track `by` places on (negative: back), crossfading equal-power over
    /// `switchSeconds` from the frames produced so far. Back from the first track restarts it.
    ///
    /// `rewindingTo`: live, the frame the switch starts from, before the frames produced so
    /// far (still in the history): those after it are taken back (the caller has the mixer
    /// skip them, `AudioStream.splice`) and play as the start of the outgoing side. Returns
    /// whether it rewound.
    @discardableResult
    package func skip(by step: Int, rewindingTo frame: Int? = nil) -> Bool {
        guard step != 0, !entries.isEmpty, unplayable.count < entries.count else { return false }
        let head = takeBack(to: frame)
        let rest = max(0, switchFrames - head.count / 2)
        let outgoing = head + (current.map { Array($0.read(rest, keepingBack: 0)) } ?? [])
        current = nil
        tail = outgoing
        tailFrame = 0
        fadeFrame = 0
        isFinished = false
        let target = max(0, cursor + step)
        if !open(at: target, step: step > 0 ? 1 : -1, frame: produced) && step < 0 {
            _ = open(at: target, step: 1, frame: produced)
        }
        if current == nil { isFinished = true }
        return !head.isEmpty
    }

    /// Takes back the frames produced from `frame` on (live, still in the history), to be
    /// produced again: returns them; none when `frame` is nil or out of the history.
    private func takeBack(to frame: Int?) -> [Float] {
        guard let frame, frame < produced, produced - frame <= history.count / 2 else { return [] }
        let head = Array(history[(history.count - 2 * (produced - frame))...])
        history.removeLast(head.count)
        produced = frame
        notes.removeAll { $0.frame >= frame && !$0.event.isImmediate }
        return head
    }

    /// Frames a seek crossfades over.
    static let seekFadeSeconds = 0.03

    /// The session's timeline moved by `delta` frames (a seek): the track playing moves by as
    /// much — forward by decoding past it (into the next track if it ends), back by opening
    /// it again (not before its start) — crossfaded equal-power over `seekFadeSeconds`, as
    /// the mixer fades a seek. A station in the playlist does not move (it is live).
    /// `rewindingTo` as for `skip`. Returns whether it rewound.
    @discardableResult
    func seek(by delta: Int, rewindingTo frame: Int? = nil) -> Bool {
        guard delta != 0, let track = current as? PlaylistTrack else { return false }
        let head = takeBack(to: frame)
        // Where the listener is in the track: before the frames taken back.
        let target = max(0, track.position - head.count / 2 + delta)
        let fade = Int((Self.seekFadeSeconds * sampleRate).rounded())
        var outgoing = Array(head.prefix(2 * fade))
        if outgoing.count < 2 * fade { outgoing += track.read(fade - outgoing.count / 2) }
        if target >= track.position {
            _ = track.read(target - track.position)
        } else if let again = try? PlaylistTrack(path: track.path, sampleRate: sampleRate, gainDecibels: track.gainDecibels,
                                                 referenceLoudness: referenceLoudness) {
            _ = again.read(target)
            current = again
        }
        tail = outgoing
        tailFrame = 0
        fadeFrame = 0
        return !head.isEmpty
    }

    /// The next `count` frames (interleaved stereo); silence once the playlist has ended.
    /// Fewer only while a station plays and has not delivered them yet (live).
    package func produce(_ count: Int) -> [Float] {
        var out = [Float](repeating: 0, count: 2 * count)
        var filled = 0
        var starved = false
        if cursor < 0 && current == nil && !isFinished {
            if !open(at: 0, step: 1, frame: produced) { isFinished = true }
        }
        while filled < count {
            guard let track = current else {
                // Nothing incoming: what is left of the tail plays out as it is.
                let n = min(count - filled, tail.count / 2 - tailFrame)
                for i in 0..<max(0, n) * 2 { out[2 * filled + i] = tail[2 * tailFrame + i] }
                if n > 0 { tailFrame += n; filled += n }
                break
            }
            let chunk = track.read(count - filled, keepingBack: crossfadeFrames)
            if let station = track as? StationTrack {
                for event in station.takeEvents() { notes.append(Note(frame: produced + filled, event: event)) }
            }
            if chunk.isEmpty && !track.isAtEnd {
                // A station that has not delivered yet: the outgoing tail fades out over silence.
                let n = min(count - filled, tail.count / 2 - tailFrame)
                guard n > 0 else { starved = true; break }
                let tailFrames = tail.count / 2
                for i in 0..<n {
                    let g = Float(cos((Double(fadeFrame) + 0.5) / Double(tailFrames) * .pi / 2))
                    out[2 * (filled + i)] = tail[2 * tailFrame] * g
                    out[2 * (filled + i) + 1] = tail[2 * tailFrame + 1] * g
                    fadeFrame += 1
                    tailFrame += 1
                }
                filled += n
                continue
            }
            if chunk.isEmpty {
                // The track's end: its last `crossfadeFrames` overlap the next track's start.
                if let problem = track.problem { notes.append(Note(frame: produced + filled, event: .skipped(url: name, message: problem))) }
                // A gain measured while it played is known the next time it plays.
                if let measured = (track as? PlaylistTrack)?.measuredLoudness, cursor >= 0, cursor < sequence.count {
                    gains[sequence[cursor]] = min(max(referenceLoudness - measured, -30), 24)
                }
                let rest = track.readRest()
                // Whatever is left of an earlier transition's tail has already been mixed in,
                // unless the track ended with nothing left (a seek past its end): then the
                // rest of that tail fades into the next track.
                tail = rest.isEmpty && tailFrame < tail.count / 2 ? Array(tail[(2 * tailFrame)...]) : rest
                tailFrame = 0
                fadeFrame = 0
                current = nil
                if !open(at: cursor + 1, step: 1, frame: produced + filled) { isFinished = true }
                continue
            }
            let n = chunk.count / 2
            let tailFrames = tail.count / 2
            chunk.withUnsafeBufferPointer { c in
                for i in 0..<n {
                    var l = c[2 * i], r = c[2 * i + 1]
                    if fadeFrame < tailFrames {
                        let t = (Double(fadeFrame) + 0.5) / Double(tailFrames) * .pi / 2
                        let gIn = Float(sin(t)), gOut = Float(cos(t))
                        l = l * gIn + tail[2 * tailFrame] * gOut
                        r = r * gIn + tail[2 * tailFrame + 1] * gOut
                        fadeFrame += 1
                        tailFrame += 1
                    }
                    out[2 * (filled + i)] = l
                    out[2 * (filled + i) + 1] = r
                }
            }
            if fadeFrame >= tailFrames && !tail.isEmpty { tail = []; tailFrame = 0; fadeFrame = 0 }
            filled += n
        }
        if starved { out.removeSubrange((2 * filled)...) }
        produced += out.count / 2
        if historyFrames > 0 {
            history += out
            if history.count > 4 * historyFrames { history.removeFirst(history.count - 2 * historyFrames) }
        }
        return out
    }
}
