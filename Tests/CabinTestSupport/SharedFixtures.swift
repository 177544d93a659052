import Foundation
import Testing

/// The real files in `../shared/fixtures` (relative to the package root), read in place.
///
/// The package root is three levels above this file (`Tests/CabinTestSupport/…`).
/// Fixtures are never copied into the project.
public enum SharedFixtures {
    /// `…/shared/fixtures`.
    public static var directory: URL {
        URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent()   // CabinTestSupport
            .deletingLastPathComponent()   // Tests
            .deletingLastPathComponent()   // package root
            .deletingLastPathComponent()   // parent of the package
            .appendingPathComponent("shared/fixtures")
    }

    /// The bytes of `relativePath` (e.g. `ahap/apple__unityplugins__Boing.ahap`).
    public static func bytes(_ relativePath: String) throws -> [UInt8] {
        Array(try Data(contentsOf: directory.appendingPathComponent(relativePath)))
    }

    /// The file names in `subdirectory` (`ahap` or `haptic`), sorted.
    public static func files(in subdirectory: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent(subdirectory).path)
            .filter { !$0.hasPrefix(".") }
            .sorted()
    }

    /// Whether the fixtures are beside the package (a user's clone has no `../shared`).
    public static var isAvailable: Bool { FileManager.default.fileExists(atPath: directory.path) }
}

extension Trait where Self == ConditionTrait {
    /// Runs the test only where the third-party fixtures are beside the package; elsewhere it
    /// is skipped with that reason.
    public static var needsSharedFixtures: Self {
        .enabled(if: SharedFixtures.isAvailable, "needs the third-party fixtures in ../shared/fixtures, which a clone does not have")
    }
}
