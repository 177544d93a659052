import Foundation

/// libcabin (the C API) as a C program or Python gets it: installed by scripts/install-lib
/// (from the build beside the test bundle, `--no-build`) into a prefix of this test process's
/// own, with include/cabin.h and cabin.pc; programs compiled by gcc against it.
public enum CLibrary {
    /// The library as built: `.build/release/libCabinC.so` beside the test bundle.
    public static var built: String {
        URL(fileURLWithPath: ExternalTool.cabinBinary).deletingLastPathComponent().appendingPathComponent("libCabinC.so").path
    }

    /// Why the C tests cannot run here (no gcc, no pkg-config, the library not built), or nil.
    public static var problem: String? {
        if ExternalTool.which("gcc") == nil { return "needs gcc" }
        if ExternalTool.which("pkg-config") == nil { return "needs pkg-config" }
        if !FileManager.default.fileExists(atPath: built) { return "needs \(built) (swift build -c release)" }
        return nil
    }

    private static let installed = Result { () throws -> URL in
        let prefix = try TestEnvironment.temporaryDirectory("cabin-lib-prefix")
        let script = TestEnvironment.packageRoot.appendingPathComponent("scripts/install-lib").path
        let result = try ExternalTool.run(script, ["--no-build", prefix.path])
        guard result.status == 0 else { throw ExternalTool.Failure(command: [script, prefix.path], result: result) }
        return prefix
    }

    /// The prefix scripts/install-lib installed into (once per test process).
    public static func prefix() throws -> URL { try installed.get() }

    /// The environment that finds the installed library through pkg-config.
    public static func pkgConfigEnvironment() throws -> [String: String] {
        ["PKG_CONFIG_PATH": try prefix().appendingPathComponent("lib/pkgconfig").path]
    }

    /// Compiles C `source` (a file) into `output` with `pkg-config --cflags --libs cabin`, an
    /// rpath to the installed library and `flags` (e.g. `-fsanitize=address`).
    public static func compile(_ source: String, to output: String, flags: [String] = []) throws -> ExternalTool.Result {
        let environment = try pkgConfigEnvironment()
        let pc = try ExternalTool.run("pkg-config", ["--cflags", "--libs", "cabin"], environment: environment)
        guard pc.status == 0 else { return pc }
        let libdir = try prefix().appendingPathComponent("lib").path
        let arguments = ["-Wall", "-Wextra", "-Werror", "-g"] + flags + [source, "-o", output]
            + pc.stdout.split(whereSeparator: \.isWhitespace).map(String.init) + ["-Wl,-rpath,\(libdir)", "-lm"]
        return try ExternalTool.run("gcc", arguments, environment: environment)
    }
}
