import CabinAudio

/// The reference `cabin bench --mix` compares the mixer with: a plain loop that sums the
/// voices of a `LoudMixScene` with a gain ramp each and hard-clips — what a hand-written C
/// mixer does, with no buses, no sample-exact timing, no true-peak limiting.
///
/// Per block: the output is cleared; every playing voice is added span by span between its
/// loop end and the end of its gain ramp (while it ramps, its gain moves by a fixed step per
/// frame; otherwise the span is one scaled add the compiler vectorizes, as a C compiler
/// does); the sum is clipped to −1…1. Events (the layers' fade-in, each cue, the ducking of
/// two buses while it plays, and their release) take effect at block starts; gains ramp
/// linearly in amplitude over the scene's fade, attack and release times.
///
/// Thread: one thread at a time; control thread for `init` (it copies the sources).
package final class PlainSummingLoop {
    struct PlainVoice {
        var samples: UnsafeMutablePointer<Float>
        var frameCount: Int
        var isLooping: Bool
        var position = 0
        var isPlaying: Bool
        var gain: Float = 0
        var step: Float = 0
        var rampFrames = 0
        /// Gain when not ducked.
        var fullGain: Float
        var isDucked: Bool

        mutating func ramp(to target: Float, frames: Int) {
            rampFrames = max(1, frames)
            step = (target - gain) / Float(rampFrames)
        }
    }

    private let voices: UnsafeMutablePointer<PlainVoice>
    private let voiceCount: Int
    private let cueFrames: [Int]
    private var nextCue = 0
    private var clock = 0
    private var wasCuePlaying = false
    private let duckGain: Float
    private let attackFrames: Int, releaseFrames: Int

    package init(_ scene: LoudMixScene) {
        let layerGain = Float(scene.layerGain.linearGain)
        let ducked = Set(scene.duck.duck.map { Int($0.index) })
        var list: [PlainVoice] = scene.sources.enumerated().map { k, source in
            var voice = PlainVoice(samples: PlainSummingLoop.copy(source), frameCount: source.frameCount, isLooping: true,
                                   isPlaying: true, fullGain: layerGain, isDucked: ducked.contains(scene.bus(ofLayer: k)))
            voice.ramp(to: layerGain, frames: Int(scene.fadeInDuration * scene.sampleRate))
            return voice
        }
        // The cue, last: stereo like the layers, playing only from its start frames.
        list.append(PlainVoice(samples: PlainSummingLoop.copy(scene.cue), frameCount: scene.cue.frameCount, isLooping: false,
                               isPlaying: false, gain: 1, fullGain: 1, isDucked: false))
        voiceCount = list.count
        voices = .allocate(capacity: list.count)
        voices.initialize(from: list, count: list.count)
        cueFrames = scene.cueFrames
        duckGain = Float(scene.duck.depth.linearGain)
        attackFrames = Int(scene.duck.attackDuration * scene.sampleRate)
        releaseFrames = Int(scene.duck.releaseDuration * scene.sampleRate)
    }

    deinit {
        for v in 0..<voiceCount { voices[v].samples.deallocate() }
        voices.deallocate()
    }

    /// Renders `frameCount` frames of interleaved stereo into `out` (no allocation).
    package func render(into out: UnsafeMutablePointer<Float>, frameCount n: Int) {
        processEvents()
        out.update(repeating: 0, count: 2 * n)
        for v in 0..<voiceCount where voices[v].isPlaying {
            var voice = voices[v]
            var i = 0
            while i < n {
                // A span up to the voice's end (or the end of its gain ramp).
                var span = min(n - i, voice.frameCount - voice.position)
                let from = voice.samples + 2 * voice.position, to = out + 2 * i
                if voice.rampFrames > 0 {
                    span = min(span, voice.rampFrames)
                    for k in 0..<span {
                        voice.gain += voice.step
                        to[2 * k] += from[2 * k] * voice.gain
                        to[2 * k + 1] += from[2 * k + 1] * voice.gain
                    }
                    voice.rampFrames -= span
                } else {
                    let g = voice.gain
                    for k in 0..<(2 * span) { to[k] += from[k] * g }
                }
                i += span
                voice.position += span
                if voice.position == voice.frameCount {
                    voice.position = 0
                    if !voice.isLooping {
                        voice.isPlaying = false
                        break
                    }
                }
            }
            voices[v] = voice
        }
        for i in 0..<(2 * n) { out[i] = min(max(out[i], -1), 1) }
        clock += n
    }

    /// Starts a cue that is due, ducking; releases the duck once the cue has ended.
    private func processEvents() {
        let cue = voiceCount - 1
        if nextCue < cueFrames.count && cueFrames[nextCue] <= clock {
            nextCue += 1
            voices[cue].isPlaying = true
            voices[cue].position = 0
            for v in 0..<cue where voices[v].isDucked { voices[v].ramp(to: voices[v].fullGain * duckGain, frames: attackFrames) }
        }
        let playing = voices[cue].isPlaying
        if wasCuePlaying && !playing {
            for v in 0..<cue where voices[v].isDucked { voices[v].ramp(to: voices[v].fullGain, frames: releaseFrames) }
        }
        wasCuePlaying = playing
    }

    /// A stereo, interleaved copy of `buffer` (mono is copied to both channels).
    private static func copy(_ buffer: AudioBuffer) -> UnsafeMutablePointer<Float> {
        let frames = buffer.frameCount
        let p = UnsafeMutablePointer<Float>.allocate(capacity: 2 * frames)
        for f in 0..<frames {
            p[2 * f] = buffer.samples[f * buffer.channelCount]
            p[2 * f + 1] = buffer.samples[f * buffer.channelCount + (buffer.channelCount > 1 ? 1 : 0)]
        }
        return p
    }
}
