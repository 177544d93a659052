import CabinAudio
import CabinIO
import CabinPlayback
import FoundationEssentials
import CabinSession

/// What a playlist `sound` holds: the tracks of a folder (every sound file in it and its
/// subfolders, by path), or the entries of an M3U/M3U8 or PLS file (paths relative to the
/// playlist's own folder, absolute paths, `file://` URLs, and station URLs). An entry that
/// climbs out of the playlist's folder with `..` (documents refuse `..` too), a file whose
/// name has no audio extension (`/etc/shadow`), or a URL of another scheme (`ftp://`) is
/// refused as it is read: it is never opened, and is skipped with one line.
///
/// ```swift
/// let list = try PlaylistSource.read("/home/me/Music/drive.m3u")
/// for entry in list.entries { print(entry) }
/// ```
///
/// Thread: control thread, or a station's thread (file-system reads).
public struct PlaylistSource: Sendable, Equatable {
    /// One line of a playlist, or one file of a folder.
    public enum Entry: Sendable, Equatable {
        /// A local file, as an absolute path (or relative to the working folder when the
        /// playlist itself was).
        case file(String)
        /// An internet station (`http://`, `https://`).
        case station(String)
        /// An entry that is not played (not opened): the entry as written, and why.
        case refused(String, reason: String)
    }

    /// The entries in play order before any shuffle (a folder's files sorted by path).
    public var entries: [Entry]

    /// Extensions of the files a folder contributes (what libsndfile reads).
    public static let audioExtensions: Set<String> = ["wav", "flac", "ogg", "oga", "opus", "mp3", "aif", "aiff", "aifc",
                                                      "au", "snd", "caf", "w64", "rf64", "wv"]
    /// A folder is walked this many levels deep and yields at most this many tracks.
    public static let maximumDepth = 8
    /// The most tracks a playlist or folder gives; the rest are left out.
    public static let maximumTracks = 100_000

    /// Why a folder or playlist file cannot be read: one line.
    public struct ReadError: Error, Sendable, CustomStringConvertible {
        /// The line, naming the path.
        public var description: String
    }

    /// `path` as the document means it: absolute as given, else under `folder`.
    public static func resolve(_ path: String, in folder: String) -> String {
        SessionReferences.playlistPath(path, in: folder)
    }

    /// The entries of the folder or playlist file at `path`.
    public static func read(_ path: String) throws(ReadError) -> PlaylistSource {
        guard let isFolder = kind(of: path) else {
            throw ReadError(description: "\(path): no such folder or playlist")
        }
        if isFolder { return PlaylistSource(entries: folder(path).map { .file($0) }) }
        let bytes: [UInt8]
        do { bytes = try DocumentFile.read(path, limit: 16 * 1024 * 1024, kind: "playlist") } catch {
            throw ReadError(description: error.description)
        }
        let text = decode(bytes)
        let base = folder(of: path)
        let ext = path.split(separator: ".").last.map { $0.lowercased() } ?? ""
        let isPLS = ext == "pls" || text.prefix(200).lowercased().contains("[playlist]")
        return PlaylistSource(entries: isPLS ? parsePLS(text, folder: base) : parseM3U(text, folder: base))
    }

    /// True for a folder, false for anything else that exists, nil when nothing is there.
    static func kind(of path: String) -> Bool? {
        (try? FileStatus(path: path))?.isFolder
    }

    /// The folder part of a path (`.` for a bare name).
    static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// Every audio file under `path`, sorted by path. Each folder is listed once (by device
    /// and inode: `ln -s . loop` is not walked again), and a link is followed only to a
    /// folder inside `path`'s own tree (`up -> ..` is not).
    static func folder(_ path: String) -> [String] {
        var out: [String] = []
        var visited = Set<[UInt64]>()
        let root = realPath(path) ?? path
        func walk(_ dir: String, depth: Int) {
            guard depth <= maximumDepth, out.count < maximumTracks, let info = try? FileStatus(path: dir),
                  visited.insert([info.device, info.inode]).inserted,
                  let names = try? FileManager.default.contentsOfDirectory(atPath: dir) else { return }
            for name in names.sorted() where !name.hasPrefix(".") {
                let full = (dir.hasSuffix("/") ? dir : dir + "/") + name
                guard let isDir = kind(of: full) else { continue }
                if isDir {
                    if let link = try? FileStatus(path: full, followingLinks: false), link.isLink {
                        guard let real = realPath(full), real == root || real.hasPrefix(root == "/" ? "/" : root + "/") else { continue }
                    }
                    walk(full, depth: depth + 1)
                } else if let ext = name.split(separator: ".").last.map({ $0.lowercased() }), name.contains("."),
                          audioExtensions.contains(ext), out.count < maximumTracks {
                    out.append(full)
                }
            }
        }
        walk(path, depth: 0)
        return out
    }

    /// `path` with every link resolved (`FileStatus.resolvedPath`), or nil.
    static func realPath(_ path: String) -> String? { FileStatus.resolvedPath(path) }

    /// Text as UTF-8 (a BOM dropped); bytes that are not UTF-8 read as Latin-1 (old `.m3u`).
    static func decode(_ bytes: [UInt8]) -> String {
        var b = bytes[...]
        if b.starts(with: [0xEF, 0xBB, 0xBF]) { b = b.dropFirst(3) }
        if let s = String(validating: b, as: UTF8.self) { return s }
        return String(b.map { Character(Unicode.Scalar($0)) })
    }

    /// One entry's text: a station URL, a `file://` URL, or a path (Windows `\` read as `/`).
    static func entry(_ raw: String, folder: String) -> Entry? {
        let line = raw.trimmingWhitespace()
        guard !line.isEmpty else { return nil }
        let lower = line.lowercased()
        if lower.hasPrefix("http://") || lower.hasPrefix("https://") { return .station(line) }
        if lower.hasPrefix("file://") {
            var path = String(line.dropFirst(7))
            if path.hasPrefix("localhost/") { path = String(path.dropFirst(9)) }
            return soundFile(percentDecoded(path))
        }
        if let scheme = scheme(of: lower) {
            return .refused(line, reason: "\(scheme):// is not a scheme Cabin plays (an entry is a file, a file:// URL or an http(s):// station)")
        }
        let path = String(line.map { $0 == "\\" ? "/" : $0 })
        if !path.hasPrefix("/") && path.split(separator: "/", omittingEmptySubsequences: false).contains("..") {
            return .refused(line, reason: "leaves the playlist's folder: \"..\" is not allowed in an entry (give an absolute path)")
        }
        return soundFile(resolve(path, in: folder))
    }

    /// A file entry, refused unopened unless its name has an audio extension.
    static func soundFile(_ path: String) -> Entry {
        let name = path.split(separator: "/").last ?? ""
        guard name.contains("."), let ext = name.split(separator: ".").last?.lowercased(), audioExtensions.contains(ext) else {
            return .refused(path, reason: "not opened: its name is not a sound file's (.wav, .flac, .ogg, .opus, .mp3 …)")
        }
        return .file(path)
    }

    /// The scheme of a URL (`ftp` in `ftp://host/x`), nil for a path.
    static func scheme(of text: String) -> String? {
        let scheme = text.prefix { $0 != ":" }
        guard text[scheme.endIndex...].hasPrefix("://"), let first = scheme.first, first.isLetter else { return nil }
        for c in scheme where !(c.isLetter || c.isNumber || "+-.".contains(c)) { return nil }
        return String(scheme)
    }

    /// `%20` and its kin decoded (a `file://` URL's path).
    static func percentDecoded(_ text: String) -> String {
        var bytes: [UInt8] = []
        var utf8 = Array(text.utf8)[...]
        while let b = utf8.popFirst() {
            if b == UInt8(ascii: "%"), utf8.count >= 2,
               let v = UInt8(String(decoding: utf8.prefix(2), as: UTF8.self), radix: 16) {
                bytes.append(v)
                utf8 = utf8.dropFirst(2)
            } else {
                bytes.append(b)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// M3U and M3U8: one entry a line; `#` lines (`#EXTM3U`, `#EXTINF`) are comments.
    public static func parseM3U(_ text: String, folder: String) -> [Entry] {
        text.split(whereSeparator: \.isNewline).compactMap { line in
            line.trimmingWhitespace().hasPrefix("#") ? nil : entry(String(line), folder: folder)
        }
    }

    /// PLS: `FileN=…` lines, in the order of N.
    public static func parsePLS(_ text: String, folder: String) -> [Entry] {
        var numbered: [(Int, Entry)] = []
        for line in text.split(whereSeparator: \.isNewline) {
            let parts = line.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2 else { continue }
            let key = parts[0].trimmingWhitespace().lowercased()
            guard key.hasPrefix("file"), let n = Int(key.dropFirst(4)), let e = entry(parts[1], folder: folder) else { continue }
            numbered.append((n, e))
        }
        return numbered.sorted { $0.0 < $1.0 }.map(\.1)
    }
}
