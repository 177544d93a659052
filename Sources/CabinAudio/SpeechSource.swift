/// Where recipes that speak get their voice: CabinSoundDesign's recipes and the session
/// loader ask it, CabinIO's synthesizers (espeak-ng, Flite) are it, so neither side imports
/// the other and the recipes stay pure. Returns mono samples at `sampleRate`.
///
/// Thread: control side only: speaking blocks and allocates (a sound is made before a
/// session plays, never on the render thread); each conformer says whether it may be shared.
public protocol SpeechSource {
    /// `text` spoken, as mono samples at `sampleRate` frames a second; throws when the
    /// synthesizer fails (each conformer says how). Blocks; control side only.
    func speak(_ text: String, sampleRate: Double) throws -> [Float]
}
