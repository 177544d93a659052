// swift-tools-version:6.1
import PackageDescription

/// Cabin: a real-time mixer on ALSA, a haptic-pattern compiler and a session timeline.
///
/// Layout (see docs/ARCHITECTURE.md):
/// - pure cores `CabinJSON`, `CabinAudio`, `CabinHaptics`, `CabinSession`, `CabinSoundDesign`:
///   no C libraries (but CabinJSON's number parser, fast_float: a pure function), no I/O;
/// - `CabinIO`: the one module that touches C and the OS (wrappers only);
/// - `CabinPlayback`: the application layer (loaders, live player, offline renderer, rumble);
/// - `CabinRemote`: the control socket and MPRIS, above the player's API;
/// - `CabinRadio`: the radio (live streams, playlists, generated music), above the player's API;
/// - `cabin`: the thin command-line tool.
let package = Package(
    name: "Cabin",
    products: [
        .executable(name: "cabin", targets: ["cabin"]),
        .library(name: "CabinJSON", targets: ["CabinJSON"]),
        .library(name: "CabinAudio", targets: ["CabinAudio"]),
        .library(name: "CabinHaptics", targets: ["CabinHaptics"]),
        .library(name: "CabinSession", targets: ["CabinSession"]),
        .library(name: "CabinIO", targets: ["CabinIO"]),
        .library(name: "CabinOutput", targets: ["CabinOutput"]),
        .library(name: "CabinPlayback", targets: ["CabinPlayback"]),
        /// The remote surfaces over a `LivePlayer`: the control socket (`ControlServer`) and
        /// MPRIS on the session bus (`MPRISServer`).
        .library(name: "CabinRemote", targets: ["CabinRemote"]),
        /// The radio: live Icecast streams, playlists of the user's music and generated music,
        /// the `SessionRadio` the player's loader makes once `RadioStations.register()` is called.
        .library(name: "CabinRadio", targets: ["CabinRadio"]),
        .library(name: "CabinSoundDesign", targets: ["CabinSoundDesign"]),
        /// libcabin: the C API (include/cabin.h). SwiftPM names the file after the product
        /// (`libCabinC.so`; `cabin` is the CLI's name); its SONAME is `libcabin.so.0` and
        /// scripts/install-lib installs it as libcabin.so with the header and cabin.pc.
        .library(name: "CabinC", type: .dynamic, targets: ["CabinC"]),
        .library(name: "CabinStudio", targets: ["CabinStudio"]),
        /// The test doubles (`FakeAudioBackend` and its devices on a `VirtualClock`), for this
        /// package's tests and embedders' own, as swift-nio ships NIOEmbedded: no product
        /// code depends on it.
        .library(name: "CabinTesting", targets: ["CabinTesting"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // Counts every malloc/free (LD_PRELOADed) for the zero-allocation proof.
        .package(url: "https://github.com/ordo-one/malloc-interposer", from: "1.6.1"),
        // TOML for the config file (~/.config/cabin/config.toml): toml++ underneath.
        .package(url: "https://github.com/LebJe/TOMLKit", from: "0.6.0"),
        // The HTTP server of `cabin studio` (on SwiftNIO). Without its default traits: they
        // add swift-configuration and URL-encoded forms, which the studio does not use.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
        // DocC: `swift package generate-documentation` (scripts/docs), each library module's
        // catalog and its API, built in CI from the release build, failing on any warning.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.4.0"),
    ],
    targets: [
        // MARK: C libraries (Debian packages, found through pkg-config)
        .systemLibrary(name: "CALSA", pkgConfig: "alsa", providers: [.apt(["libasound2-dev"])]),
        .systemLibrary(name: "CSndFile", pkgConfig: "sndfile", providers: [.apt(["libsndfile1-dev"])]),
        .systemLibrary(name: "CSoxr", pkgConfig: "soxr", providers: [.apt(["libsoxr-dev"])]),
        .systemLibrary(name: "CEbur128", pkgConfig: "libebur128", providers: [.apt(["libebur128-dev"])]),
        /// The network radio's codecs: Ogg pages, Opus and Vorbis packets, MP3 frames (feed API).
        .systemLibrary(name: "COgg", pkgConfig: "ogg", providers: [.apt(["libogg-dev"])]),
        .systemLibrary(name: "COpus", pkgConfig: "opus", providers: [.apt(["libopus-dev"])]),
        .systemLibrary(name: "CVorbis", pkgConfig: "vorbis", providers: [.apt(["libvorbis-dev"])]),
        .systemLibrary(name: "CMpg123", pkgConfig: "libmpg123", providers: [.apt(["libmpg123-dev"])]),
        /// Headers only: libespeak-ng is opened with dlopen when something is spoken (see
        /// `EspeakNGLibrary`), so the runs that never speak do not load it and its dependencies.
        .systemLibrary(name: "CEspeakNG", providers: [.apt(["libespeak-ng-dev"])]),
        /// Headers only, the same way: CMU Flite's clustergen voices (`FliteSynthesizer`).
        .systemLibrary(name: "CFlite", providers: [.apt(["flite1-dev"])]),
        /// Small C shims for what Swift cannot write (ALSA's variadic error handler, evdev's ioctl macros).
        .target(name: "CCabinShims", linkerSettings: [.linkedLibrary("asound"), .linkedLibrary("mpg123")]),
        /// libcurl (HTTP/HTTPS for network radio), opened with dlopen when a station first
        /// connects (not linked: its ~40 dependencies cost every start ~6 ms), with typed
        /// wrappers of its variadic calls.
        .target(name: "CCabinCurl"),
        /// sd-bus (libsystemd-dev) for MPRIS on the session bus, with a builder of object vtables
        /// (an array of tagged unions the C macros make, which Swift cannot write).
        .target(name: "CCabinSDBus", linkerSettings: [.linkedLibrary("systemd")]),
        /// Lemire's fast_float (libfast-float-dev, header-only C++) behind one C function: JSON
        /// number text to a double, exact as strtod, from the bytes. Pure (no allocation, locale,
        /// errno or state), so the pure core CabinJSON may use it (docs/ARCHITECTURE.md).
        .target(name: "CCabinFastFloat"),
        /// PipeWire playback (libpipewire-0.3-dev, through pkg-config): a pw_stream whose format
        /// is a SPA pod built by inline C and macros, and whose real-time process callback and
        /// event tables are C; the shim hides them behind plain calls (docs/ARCHITECTURE.md).
        .systemLibrary(name: "CPipeWire", pkgConfig: "libpipewire-0.3", providers: [.apt(["libpipewire-0.3-dev"])]),
        .target(name: "CCabinPipeWire", dependencies: ["CPipeWire"]),

        // MARK: pure cores
        /// JSON with a location for every value, and the diagnostics every document reader shares.
        .target(name: "CabinJSON", dependencies: ["CCabinFastFloat"]),
        .target(name: "CabinAudio"),
        .target(name: "CabinHaptics", dependencies: ["CabinJSON", "CabinAudio"]),
        .target(name: "CabinSession", dependencies: ["CabinJSON", "CabinAudio", "CabinHaptics"]),
        /// The built-in sound library's recipes: pure, seeded synthesis.
        .target(name: "CabinSoundDesign", dependencies: ["CabinJSON", "CabinAudio"]),
        /// The output seam in backend-neutral types (configuration, negotiated format, device
        /// errors, push and pull outputs, backends and their registry): no C, no OS.
        .target(name: "CabinOutput"),

        // MARK: the edge
        /// Wrappers of C libraries and the OS, and nothing else.
        .target(
            name: "CabinIO",
            dependencies: [
                "CabinOutput", "CabinAudio", "CabinHaptics",
                "CALSA", "CSndFile", "CSoxr", "CEbur128", "CEspeakNG", "CFlite", "CCabinShims",
                "COgg", "COpus", "CVorbis", "CMpg123", "CCabinCurl", "CCabinSDBus", "CCabinPipeWire",
            ]
        ),

        // MARK: the application layer
        /// Playing sessions: loaders, the live player and its transport, the offline renderer,
        /// the rumble player, the sound library and its generator. Built on the cores and the edge.
        .target(
            name: "CabinPlayback",
            dependencies: ["CabinJSON", "CabinAudio", "CabinHaptics", "CabinSession", "CabinSoundDesign", "CabinOutput", "CabinIO"]
        ),

        // MARK: the remote surfaces
        /// The control socket (`ControlServer`, `ControlCommands`) and MPRIS (`MPRISServer`,
        /// `MPRISState`, `MPRISCommand`): `ControlSurface`s above the player's public API;
        /// CabinPlayback does not know them.
        .target(
            name: "CabinRemote",
            dependencies: ["CabinJSON", "CabinAudio", "CabinSession", "CabinIO", "CabinOutput", "CabinPlayback"]
        ),

        // MARK: the radio
        /// `RadioStations` (internet streams through libcurl, ICY metadata, the codecs, playlists
        /// with ReplayGain, generated music) writing the streams the mixer reads: the
        /// `SessionRadio` CabinPlayback's loader makes when it is registered; CabinPlayback
        /// does not import it.
        .target(
            name: "CabinRadio",
            dependencies: ["CabinAudio", "CabinSession", "CabinSoundDesign", "CabinIO", "CabinPlayback"]
        ),

        // MARK: the benchmarks
        /// `cabin bench`'s measurements (the mixer's drive and loud-mix scenes and the plain
        /// summing loop they are compared with, haptic compile speed, live haptics, offline and
        /// live playback, a station's decoding, a playlist's start): the CLI's and the
        /// allocation check's, not a product; what they need inside the modules is `package`.
        .target(
            name: "CabinBench",
            dependencies: ["CabinJSON", "CabinAudio", "CabinHaptics", "CabinSession", "CabinOutput", "CabinIO", "CabinPlayback",
                           "CabinRadio"]
        ),

        // MARK: the test doubles
        /// A sound device and backend on a virtual clock that moves only when the player waits.
        .target(name: "CabinTesting", dependencies: ["CabinPlayback", "CabinOutput", "CabinIO"]),

        // MARK: the user's settings
        /// The config file (TOML, parsed and merged with the environment and the options:
        /// pure, given the text) and the state file (`cabin play --resume`, the remembered
        /// volumes). Reading and writing the files is the CLI's, through CabinIO.
        .target(
            name: "CabinConfig",
            dependencies: ["CabinJSON", "CabinAudio", "CabinHaptics", "CabinSession", "CabinOutput",
                           .product(name: "TOMLKit", package: "TOMLKit")]
        ),

        // MARK: the studio
        /// `cabin studio`: a local page (Hummingbird on 127.0.0.1, a random token in its
        /// address) that draws patterns as timelines, plays their sound and reloads on save.
        .target(
            name: "CabinStudio",
            dependencies: ["CabinJSON", "CabinAudio", "CabinHaptics", "CabinIO", "CabinPlayback", "CabinRemote",
                           .product(name: "Hummingbird", package: "hummingbird")]
        ),

        // MARK: the CLI
        .executableTarget(
            name: "cabin",
            dependencies: [
                "CabinJSON", "CabinAudio", "CabinHaptics", "CabinSession", "CabinOutput", "CabinIO", "CabinPlayback",
                "CabinSoundDesign", "CabinConfig", "CabinStudio", "CabinRemote", "CabinRadio", "CabinBench",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            // The Swift runtime (and FoundationEssentials, Dispatch) linked into the binary:
            // no libswiftCore.so & co. to map and relocate at every start (cabin --help 17.7 ->
            // 15.0 MB peak RSS, 10 -> 7.6 ms). The modules are compiled against the shared
            // runtime's interfaces, so FoundationEssentials' own static dependencies are named
            // here. (An executable's unsafe flags do not stop the libraries being dependencies.)
            //
            // Linked by lld (shipped with the Swift toolchain) with packed relative relocations
            // (DT_RELR, glibc 2.36+): the binary's ~131,000 relative relocations were a 2 MB
            // table the dynamic loader read at every start; packed, it is 16 KB (the drive's
            // peak memory 41.1 -> 39.4 MB, `cabin --version` 6.0 -> 5.8 ms).
            linkerSettings: [
                .unsafeFlags(["-static-stdlib", "-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs"],
                             .when(platforms: [.linux])),
                .linkedLibrary("_FoundationCollections", .when(platforms: [.linux])),
                .linkedLibrary("_FoundationCShims", .when(platforms: [.linux])),
                // TOMLKit (the config file) imports Foundation: CoreFoundation and ICU with it.
                .linkedLibrary("CoreFoundation", .when(platforms: [.linux])),
                .linkedLibrary("_FoundationICU", .when(platforms: [.linux])),
            ]
        ),

        // MARK: the C library
        /// `@_cdecl` functions over CabinPlayback's public API (and CabinRadio's, registered), declared by the hand-written
        /// include/cabin.h. The Swift runtime is linked in (`-static-stdlib`: a C or Python
        /// program needs no Swift toolchain), and only the `cabin_` functions are exported
        /// (exports.map), so the runtime inside cannot clash with another one in the process.
        .target(
            name: "CabinC",
            dependencies: ["CabinJSON", "CabinAudio", "CabinHaptics", "CabinSession", "CabinOutput", "CabinIO", "CabinPlayback",
                           "CabinRemote", "CabinRadio"],
            exclude: ["exports.map"],
            linkerSettings: [
                .unsafeFlags(["-static-stdlib", "-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs",
                              "-Xlinker", "-soname=libcabin.so.0",
                              "-Xlinker", "--version-script=\(Context.packageDirectory)/Sources/CabinC/exports.map"],
                             .when(platforms: [.linux])),
                .linkedLibrary("_FoundationCollections", .when(platforms: [.linux])),
                .linkedLibrary("_FoundationCShims", .when(platforms: [.linux])),
            ]
        ),

        /// Renders a session with the allocator hooked and prints the allocation counts of
        /// steady-state rendering; run with LD_PRELOAD of libMallocInterposerSwift.so (the
        /// allocation test does). Not part of `cabin`: linking the interposer would replace
        /// malloc in the product binary.
        .executableTarget(
            name: "cabin-alloc-check",
            dependencies: [
                "CabinAudio", "CabinSession", "CabinIO", "CabinPlayback", "CabinRadio", "CabinBench",
                .product(name: "MallocInterposerSwift", package: "malloc-interposer"),
            ],
            path: "Sources/CabinAllocationCheck"
        ),

        /// The fuzz targets (JSON, AHAP, .haptic, sessions): libFuzzer's entry point when
        /// built by scripts/fuzz (-sanitize=fuzzer -D CABIN_FUZZ), else a replayer of inputs.
        .executableTarget(
            name: "cabin-fuzz",
            dependencies: ["CabinJSON", "CabinHaptics", "CabinSession"],
            path: "Sources/CabinFuzz"
        ),

        // MARK: tests
        .target(name: "CabinTestSupport", dependencies: ["CabinAudio"], path: "Tests/CabinTestSupport"),
        .testTarget(name: "CabinJSONTests", dependencies: ["CabinJSON", "CabinAudio", "CabinTestSupport"]),
        .testTarget(name: "CabinAudioTests", dependencies: ["CabinAudio", "CabinBench", "CabinTestSupport"]),
        .testTarget(name: "CabinHapticsTests", dependencies: ["CabinHaptics", "CabinAudio", "CabinTestSupport"]),
        .testTarget(name: "CabinSessionTests", dependencies: ["CabinSession", "CabinTestSupport"]),
        .testTarget(name: "CabinIOTests", dependencies: ["CabinIO", "CabinOutput", "CabinAudio", "CabinSoundDesign", "CabinTestSupport"]),
        .testTarget(name: "CabinPlaybackTests",
                    dependencies: ["CabinPlayback", "CabinRemote", "CabinRadio", "CabinTesting", "CabinOutput", "CabinIO", "CabinAudio", "CabinSession", "CabinHaptics", "CabinSoundDesign", "CabinTestSupport"]),
        .testTarget(name: "CabinCLITests", dependencies: ["CabinTestSupport", "CabinOutput", "CabinIO", "CabinSession", "CabinPlayback", "CabinHaptics", "CabinJSON"]),
        .testTarget(name: "CabinConfigTests", dependencies: ["CabinConfig", "CabinPlayback", "CabinSession", "CabinAudio"]),
        /// libcabin from C (gcc, AddressSanitizer) and Python (pytest): programs, not imports.
        .testTarget(name: "CabinCTests", dependencies: ["CabinTestSupport", "CabinPlayback"]),
        .testTarget(name: "CabinSoundDesignTests", dependencies: ["CabinSoundDesign", "CabinAudio", "CabinTestSupport"]),
    ]
)
