import CabinPlayback
import CabinTestSupport
import Foundation
import Testing

/// One version everywhere: `cabin --version`, the library's `CabinVersion.string`, the C
/// library's `cabin_version()` and its `cabin.pc`, and the newest entry of CHANGELOG.md; and
/// the licence files the README and NOTICE name are there.
@Suite struct VersionTests {
    @Test func theBinaryTheLibraryAndTheChangelogNameOneVersion() throws {
        let printed = try ExternalTool.cabin(["--version"])
        #expect(printed.status == 0)
        #expect(printed.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == CabinVersion.string)
        // Semantic versioning: three numbers.
        let parts = CabinVersion.string.split(separator: ".")
        #expect(parts.count == 3 && parts.allSatisfy { Int($0) != nil }, "\(CabinVersion.string)")
        let changelog = try String(contentsOf: TestEnvironment.packageRoot.appendingPathComponent("CHANGELOG.md"), encoding: .utf8)
        let newest = try #require(changelog.split(separator: "\n").first { $0.hasPrefix("## ") && $0.dropFirst(3).first?.isNumber == true })
        #expect(newest.dropFirst(3).split(separator: " ").first.map(String.init) == CabinVersion.string, "\(newest)")
    }

    /// libcabin reports the same version to a C program, and pkg-config to its build.
    @Test(.enabled(if: CLibrary.problem == nil, "\(CLibrary.problem ?? "")"))
    func theCLibraryAndItsPkgConfigNameTheSameVersion() throws {
        let dir = try TestEnvironment.temporaryDirectory("cabin-version")
        defer { try? FileManager.default.removeItem(at: dir) }
        let source = dir.appendingPathComponent("version.c")
        try Data("#include <cabin.h>\n#include <stdio.h>\nint main(void) { puts(cabin_version()); return 0; }\n".utf8).write(to: source)
        let binary = dir.appendingPathComponent("version").path
        let built = try CLibrary.compile(source.path, to: binary)
        try #require(built.status == 0, "\(built.stderr)")
        let printed = try ExternalTool.run(binary, [])
        #expect(printed.stdout == CabinVersion.string + "\n", "\(printed.stdout)\(printed.stderr)")
        let pc = try ExternalTool.run("pkg-config", ["--modversion", "cabin"], environment: try CLibrary.pkgConfigEnvironment())
        #expect(pc.stdout == CabinVersion.string + "\n", "\(pc.stdout)\(pc.stderr)")
    }

    /// LICENSE is the Apache License 2.0 and NOTICE names each library the package links
    /// (its `pkgConfig` system libraries and linked libraries in Package.swift) or opens.
    @Test func licenceAndNoticeCoverWhatIsLinked() throws {
        let root = TestEnvironment.packageRoot
        let licence = try String(contentsOf: root.appendingPathComponent("LICENSE"), encoding: .utf8)
        #expect(licence.contains("Apache License") && licence.contains("Version 2.0, January 2004"))
        let notice = try String(contentsOf: root.appendingPathComponent("NOTICE"), encoding: .utf8)
        let manifest = try String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)
        // Every pkg-config name and linked library in the manifest, by the name NOTICE uses.
        let names = ["alsa": "ALSA", "sndfile": "libsndfile", "soxr": "libsoxr", "libebur128": "libebur128",
                     "ogg": "libogg", "opus": "libopus", "vorbis": "libvorbis", "libmpg123": "libmpg123",
                     "systemd": "libsystemd", "asound": "ALSA", "mpg123": "libmpg123"]
        let linked = manifest.matches(of: /(?:pkgConfig: |linkedLibrary\()"([a-z0-9]+)"/).map { String($0.1) }
        #expect(linked.count >= 10, "\(linked)")
        for name in linked {
            let shown = try #require(names[name], "Package.swift links \(name): name it in NOTICE and here")
            #expect(notice.contains(shown), "NOTICE does not name \(shown)")
        }
        for opened in ["libcurl", "Flite", "espeak-ng", "GPL-3.0", "swift-argument-parser", "TOMLKit", "fast_float"] {
            #expect(notice.contains(opened), "NOTICE does not name \(opened)")
        }
        // Every Swift package the manifest depends on, by its repository's name (Hummingbird
        // by its own), and the packages Hummingbird brings into `cabin` (the static link's
        // modules: swift-nio with llhttp, swift-log …).
        let packages = manifest.matches(of: /\.package\(url: "https:\/\/github\.com\/[^\/]+\/([^"]+)"/).map { String($0.1) }
        #expect(packages.count >= 4, "\(packages)")
        for package in packages {
            let shown = package == "hummingbird" ? "Hummingbird" : package
            #expect(notice.contains(shown), "Package.swift depends on \(package): name it in NOTICE")
        }
        for linked in ["swift-nio", "llhttp", "swift-nio-extras", "swift-http-types", "swift-log", "swift-metrics",
                       "swift-distributed-tracing", "swift-service-context", "swift-service-lifecycle",
                       "swift-async-algorithms", "swift-atomics", "swift-collections", "swift-system"] {
            #expect(notice.contains(linked), "NOTICE does not name \(linked), which Hummingbird links into cabin")
        }
    }
}
