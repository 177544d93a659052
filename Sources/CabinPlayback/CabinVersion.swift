/// Cabin's version: what `cabin --version` prints and what an embedding app can report. The
/// newest entry of CHANGELOG.md names the same version (a test checks both); what a version
/// promises is in CHANGELOG.md's "Stability".
///
/// Thread: any (a constant).
public enum CabinVersion {
    /// Semantic versioning: `MAJOR.MINOR.PATCH`.
    public static let string = "0.1.0"
}
