import FoundationEssentials
import Glibc

/// `cabin-fuzz`: built by scripts/fuzz (`-sanitize=fuzzer -D CABIN_FUZZ`), it hands its
/// arguments to libFuzzer and fuzzes the target named by `CABIN_FUZZ_TARGET`; built plainly
/// (as `swift build` does), it replays files through a target once each — the seed corpora,
/// or an input a fuzz run saved: `cabin-fuzz TARGET FILE|FOLDER...`.
@main
struct CabinFuzz {
    static func main() {
        #if CABIN_FUZZ
        guard let name = getenv("CABIN_FUZZ_TARGET").map({ String(cString: $0) }), let target = FuzzTarget(rawValue: name) else {
            print("cabin-fuzz: set CABIN_FUZZ_TARGET to one of \(FuzzTarget.allCases.map(\.rawValue).joined(separator: ", "))")
            exit(2)
        }
        FuzzInput.target = target
        var argc = CommandLine.argc
        var argv = Optional(CommandLine.unsafeArgv)
        exit(LLVMFuzzerRunDriver(&argc, &argv, FuzzInput.testOneInput))
        #else
        replay(Array(CommandLine.arguments.dropFirst()))
        #endif
    }

    static func replay(_ arguments: [String]) {
        guard let name = arguments.first, let target = FuzzTarget(rawValue: name), arguments.count > 1 else {
            print("usage: cabin-fuzz \(FuzzTarget.allCases.map(\.rawValue).joined(separator: "|")) FILE|FOLDER...")
            exit(2)
        }
        var count = 0
        for path in arguments.dropFirst() {
            var info = stat()
            guard stat(path, &info) == 0 else {
                print("cabin-fuzz: \(path): no such file or folder")
                exit(1)
            }
            let files = (info.st_mode & S_IFMT) == S_IFDIR
                ? ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted().map { path + "/" + $0 }
                : [path]
            for file in files {
                guard let data = FileManager.default.contents(atPath: file) else { continue }
                target.run(Array(data))
                count += 1
            }
        }
        print("cabin-fuzz \(name): \(count) inputs replayed, no crash")
    }
}

#if CABIN_FUZZ
/// The input callback libFuzzer calls, for the target chosen at start.
enum FuzzInput {
    nonisolated(unsafe) static var target = FuzzTarget.json

    static let testOneInput: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt = { data, size in
        let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
        FuzzInput.target.run(bytes)
        return 0
    }
}

/// libFuzzer's driver (compiler-rt), for a program that has its own `main`.
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt
#endif
