import CCabinShims
import FoundationEssentials

/// Finds the files that ship with Cabin (the sound library, the haptic patterns, example
/// sessions), first match wins:
/// 1. the environment variable named (`CABIN_SOUNDS`, `CABIN_PATTERNS`), when set;
/// 2. the nearest match above the running executable (a build inside the package:
///    `.build/release/cabin`);
/// 3. the prefix the running code is installed in: `share/cabin` beside the parent or
///    grandparent of the folder of the file holding this code, the executable or the shared
///    library (`/usr/bin/cabin` and `/usr/lib/x86_64-linux-gnu/libcabin.so.0` find
///    `/usr/share/cabin`, `~/.local/bin/cabin` finds `~/.local/share/cabin`), so an installed
///    Cabin reads its own files, never those of the checkout it was built in;
/// 4. the Cabin package this library was built from (its folder as the compiler saw it: an
///    app that depends on Cabin by path, or through SwiftPM's checkout of it, finds the
///    package's `Sounds/` and `Patterns/` there, wherever the app itself is);
/// 5. `$XDG_DATA_HOME/cabin` (default `~/.local/share/cabin`), `/usr/local/share/cabin`,
///    then `/usr/share/cabin` (an installed Cabin).
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
        return installed.map { $0.appendingPathComponent(relative) }.first(where: exists)
    }

    /// Where the rules after the executable's folders look (3 to 5 above), in order.
    public static var installed: [URL] {
        var folders = prefixFolders + [packageFolder]
        let environment = ProcessInfo.processInfo.environment
        if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") {
            folders.append(URL(fileURLWithPath: data).appendingPathComponent("cabin"))
        } else if let home = environment["HOME"], home.hasPrefix("/") {
            folders.append(URL(fileURLWithPath: home).appendingPathComponent(".local/share/cabin"))
        }
        folders += ["/usr/local/share/cabin", "/usr/share/cabin"].map { URL(fileURLWithPath: $0) }
        return folders
    }

    /// The Cabin package this module was compiled from (this file is
    /// `Sources/CabinIO/ResourceLocator.swift` in it).
    public static let packageFolder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Where `find` looked for `relative`, for an error that says so: the variable, then the
    /// folders (the executable's nearest, the package, the install locations).
    public static func searched(_ relative: String, environment: String?) -> String {
        var places = environment.map { ["$\($0)"] } ?? []
        places.append("above \(executableFolder.path)")
        places += installed.map { $0.appendingPathComponent(relative).path }
        return places.joined(separator: ", ")
    }

    /// `share/cabin` in the parent and grandparent of `codeFolder` (rule 3 above): for
    /// `/usr/bin` and `/usr/lib/x86_64-linux-gnu`, `/usr/share/cabin` is one of them.
    static var prefixFolders: [URL] {
        let parent = codeFolder.deletingLastPathComponent()
        return [parent, parent.deletingLastPathComponent()].map { $0.appendingPathComponent("share/cabin") }
    }

    /// The folder of the file holding this code: the shared library it was linked into
    /// (libcabin), else the running executable.
    static var codeFolder: URL {
        guard let path = cabin_loaded_object_path(#dsohandle) else { return executableFolder }
        return URL(fileURLWithPath: String(cString: path)).resolvingSymlinksInPath().deletingLastPathComponent()
    }

    /// The folder of the running executable (`/proc/self/exe` resolved).
    public static var executableFolder: URL {
        URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
    }
}
