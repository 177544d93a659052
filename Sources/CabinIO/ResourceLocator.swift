import FoundationEssentials

/// Finds the files that ship with Cabin (the sound library, the haptic patterns, example
/// sessions): an environment variable names it, else the nearest match above the running
/// executable (a build inside the package: `.build/release/cabin`), else the system-wide
/// install under `/usr/share/cabin`.
///
/// ```swift
/// let sounds = ResourceLocator.find("Sounds", containing: "manifest.json", environment: "CABIN_SOUNDS")
/// ```
///
/// Thread: any thread (reads the file system and `/proc/self/exe`).
public enum ResourceLocator {
    /// How many folders above the executable are searched.
    static let levels = 6

    /// `relative` (a folder or file inside the package) as found by the rules above;
    /// `containing` names a file that must exist inside a folder for it to count. Nil when
    /// nothing is found.
    public static func find(_ relative: String, containing: String? = nil, environment: String? = nil) -> URL? {
        if let environment, let value = ProcessInfo.processInfo.environment[environment], !value.isEmpty {
            return URL(fileURLWithPath: value)
        }
        func exists(_ url: URL) -> Bool {
            FileManager.default.fileExists(atPath: containing.map { url.appendingPathComponent($0).path } ?? url.path)
        }
        var dir = executableFolder
        for _ in 0..<levels {
            let candidate = dir.appendingPathComponent(relative)
            if exists(candidate) { return candidate }
            dir.deleteLastPathComponent()
        }
        let system = URL(fileURLWithPath: "/usr/share/cabin").appendingPathComponent(relative)
        return exists(system) ? system : nil
    }

    /// The folder of the running executable (`/proc/self/exe` resolved).
    public static var executableFolder: URL {
        URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
    }
}
