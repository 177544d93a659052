/// One sounding thing inside the mixer: a layer's loop, a one-shot, a synthesized source or
/// a stream, with its own gain ramps and playback position.
///
/// A trivial value (no references) living in the mixer's preallocated voice pool; starting
/// and stopping a voice only rewrites a slot.
///
/// Thread: render thread only (inside `Mixer`).
struct Voice: BitwiseCopyable {
    enum Phase: UInt8, BitwiseCopyable {
        case idle
        case playing
        /// Fading out (stopped, stolen or crossfaded away); freed when the fade ends.
        case releasing
    }

    var phase: Phase = .idle
    var bus: Int32 = 0
    /// The layer that owns this voice, or −1 (one-shots, voices crossfaded away).
    var owner: Int32 = -1
    /// The layer whose pitch/gain maps this voice follows, or −1.
    var mapLayer: Int32 = -1
    /// Start order, for "steal the oldest".
    var serial: Int64 = 0
    var source: SoundSource = .asset(AssetID(index: -1))
    var isLooping = false
    /// Position in asset frames (fractional while repitched).
    var position: Double = 0
    /// True once a loop has wrapped: frames before the loop start then map to its end.
    var hasWrapped = false
    /// Configured gain × loudness trim, linear.
    var baseGain: Double = 1
    /// Gain relative to the configured gain (`fadeLayer`), linear in dB.
    var level = DecibelRamp(0)
    /// Fade in/out and crossfade envelope, 0…1.
    var envelope = Ramp(0)
    /// Last gain applied, for "steal the quietest" among equals.
    var lastGain: Double = 0
    /// The running state of the synthesized kind the voice plays (its `SynthKind.State`,
    /// set up by the kind's `start`): one block shared by every kind, not a field per kind.
    var synthState = SynthState()

    /// Starts fading out over `frames` with `shape`; the voice frees itself at the end.
    mutating func processRelease(frames: Int64, shape: Ramp.Shape = .linear) {
        phase = .releasing
        owner = -1
        envelope.start(to: 0, frames: frames, shape: shape)
    }
}

/// Per-layer pitch and gain map references into the mixer's flat map table.
///
/// Thread: written when the mixer is made; read on the render thread.
struct LayerMaps: BitwiseCopyable {
    var pitchParameter: Int32 = -1
    var pitchOffset: Int32 = 0
    var pitchCount: Int32 = 0
    var gainParameter: Int32 = -1
    var gainOffset: Int32 = 0
    var gainCount: Int32 = 0
}

/// What a voice's render kernel reads besides the voice itself.
///
/// Thread: render thread only; every pointer is owned by the `Mixer`.
struct VoiceRenderContext {
    var assets: UnsafeMutablePointer<AssetTable.Slot>
    var assetCount: Int
    /// Parameter values for the current segment: row `p` starts at `p * stride`.
    var parameterValues: UnsafeMutablePointer<Double>
    /// Whether parameter `p` moves during the segment (if not, only entry 0 is valid).
    var parameterMoving: UnsafeMutablePointer<Bool>
    var stride: Int
    var layerMaps: UnsafeMutablePointer<LayerMaps>
    var mapPoints: UnsafeMutablePointer<Double>
    /// `stride` doubles a voice's render call may fill with its gain map's per-frame gains
    /// (`Voice.modulation`); one voice renders at a time.
    var gainScratch: UnsafeMutablePointer<Double>
    /// `stride` doubles for its pitch map's per-frame ratios, in the same way.
    var pitchScratch: UnsafeMutablePointer<Double>
    var brown: BrownCoefficients
    /// The mixer's view of each registered stream, by `StreamID` index.
    var streams: UnsafeMutablePointer<StreamTable.Slot>
    var streamCount: Int
    /// The mixer's scatters, by `ScatterID` index.
    var scatters: UnsafeMutablePointer<ScatterTable.Slot>
    var scatterCount: Int
    /// `2 × stride` floats a scatter voice sums its grains into (`renderScatter`); one voice
    /// renders at a time.
    var scatterSums: UnsafeMutablePointer<Float>
    /// 1 / (asset frames in a scatter sound's 10 ms end fades), at the mixer's rate.
    var scatterFadeRate: Double
    var sampleRate: Double
    /// 2π / sampleRate.
    var radiansPerHertz: Double
}
