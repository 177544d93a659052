/// The module's name as a type, for its documentation: the overview is the catalog's root
/// page (`CabinSoundDesign.docc`).
///
/// Thread: no instances; nothing to call.
public enum CabinSoundDesign {}
