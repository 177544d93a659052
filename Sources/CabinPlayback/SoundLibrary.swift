import CabinIO
import CabinSession
import FoundationEssentials

/// The built-in sound library: a folder with `manifest.json` (normally `Sounds/` in the
/// package).
///
/// Thread: control thread only (file I/O).
public struct SoundLibrary: Sendable {
    /// The folder holding `manifest.json`.
    public let root: URL
    /// The library's `manifest.json` as read: its entries, by name, and their files.
    public let manifest: SoundManifest

    /// Reads `root/manifest.json`. Throws one line per problem, joined.
    public init(root: URL) throws(SoundLibraryError) {
        let path = root.appendingPathComponent("manifest.json").path
        let data: [UInt8]
        do { data = try DocumentFile.read(path, kind: "manifest") } catch {
            throw SoundLibraryError(message: "\(error) (no sound library here)")
        }
        let (manifest, diagnostics) = SoundManifest.read(data, file: path)
        guard let manifest else {
            throw SoundLibraryError(message: diagnostics.errors.map(\.description).joined(separator: "\n"))
        }
        self.root = root
        self.manifest = manifest
    }

    /// Where the library is: `$CABIN_SOUNDS`, else the nearest `Sounds/manifest.json` above
    /// the running executable (a build inside the package), else `/usr/share/cabin/Sounds`.
    public static func locate() -> URL? {
        ResourceLocator.find("Sounds", containing: "manifest.json", environment: "CABIN_SOUNDS")
    }

    /// The library found by `locate()`, or `nil` (sessions that use only files and
    /// synthesizers do not need it).
    public static func standard() throws(SoundLibraryError) -> SoundLibrary? {
        guard let root = locate() else { return nil }
        return try SoundLibrary(root: root)
    }

    /// The library `standard()` finds, or nil when none is found or its manifest cannot be
    /// read: `SessionLoader.load`'s default, so a session's library sounds are found without
    /// being asked for (and where they cannot be, each reference to one says why).
    public static var found: SoundLibrary? { try? standard() }

    /// The file of a library sound.
    public func url(for entry: SoundManifest.Entry) -> URL { root.appendingPathComponent(entry.file) }
}

/// The sound library's manifest is missing or broken.
public struct SoundLibraryError: Error, Sendable, CustomStringConvertible {
    /// What is wrong, one line per problem (the manifest's errors, located), joined by
    /// newlines; also the `description`.
    public var message: String
    public var description: String { message }
}
