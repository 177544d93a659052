import CEspeakNG
import Glibc

/// libespeak-ng, opened the first time something is spoken rather than when `cabin` starts:
/// the library and what it pulls in (libpcaudio, libpulse, X11, xcb, D-Bus, systemd, gcrypt
/// …) cost every run about 2 MB of memory and 3 ms of start-up (`cabin --help`), and most
/// runs never speak. (Playing through ALSA may load libpulse anyway, for its pulse plugin.)
///
/// Thread: any; the library is opened once (the first `shared` access) and never closed.
/// The corresponding C functions are `dlopen` and `dlsym`.
struct EspeakNGLibrary: @unchecked Sendable {
    /// The runtime name of the library (Debian's libespeak-ng1).
    static let soname = "libespeak-ng.so.1"

    /// The library, or why it could not be opened (speech then fails, and `say` cues play
    /// their fallback).
    static let shared: Result<EspeakNGLibrary, SystemError> = Result { () throws(SystemError) in try EspeakNGLibrary() }

    /// `t_espeak_callback` (imported as a Swift function type, not a C function pointer).
    typealias SynthCallback = @convention(c) (UnsafeMutablePointer<Int16>?, Int32, UnsafeMutablePointer<espeak_EVENT>?) -> Int32

    let initializePath: @convention(c) (UnsafePointer<CChar>?) -> Void
    let initialize: @convention(c) (UnsafeMutablePointer<espeak_ng_ERROR_CONTEXT?>?) -> espeak_ng_STATUS
    let initializeOutput: @convention(c) (espeak_ng_OUTPUT_MODE, Int32, UnsafePointer<CChar>?) -> espeak_ng_STATUS
    let setSynthCallback: @convention(c) (SynthCallback?) -> Void
    let getSampleRate: @convention(c) () -> Int32
    let setVoiceByName: @convention(c) (UnsafePointer<CChar>?) -> espeak_ng_STATUS
    let setParameter: @convention(c) (espeak_PARAMETER, Int32, Int32) -> espeak_ng_STATUS
    let synth: @convention(c) (UnsafeRawPointer?, Int, UInt32, espeak_POSITION_TYPE, UInt32, UInt32,
                               UnsafeMutablePointer<UInt32>?, UnsafeMutableRawPointer?) -> espeak_ERROR
    let synchronize: @convention(c) () -> espeak_ng_STATUS
    let getStatusCodeMessage: @convention(c) (espeak_ng_STATUS, UnsafeMutablePointer<CChar>?, Int) -> Void

    private init() throws(SystemError) {
        guard let handle = dlopen(Self.soname, RTLD_NOW | RTLD_LOCAL) else {
            throw SystemError(operation: "dlopen \(Self.soname)", code: 0, reason: Self.lastError())
        }
        func symbol<F>(_ name: String) throws(SystemError) -> F {
            guard let address = dlsym(handle, name) else {
                throw SystemError(operation: "dlsym \(name)", code: 0, reason: Self.lastError())
            }
            return unsafeBitCast(address, to: F.self)
        }
        initializePath = try symbol("espeak_ng_InitializePath")
        initialize = try symbol("espeak_ng_Initialize")
        initializeOutput = try symbol("espeak_ng_InitializeOutput")
        setSynthCallback = try symbol("espeak_SetSynthCallback")
        getSampleRate = try symbol("espeak_ng_GetSampleRate")
        setVoiceByName = try symbol("espeak_ng_SetVoiceByName")
        setParameter = try symbol("espeak_ng_SetParameter")
        synth = try symbol("espeak_Synth")
        synchronize = try symbol("espeak_ng_Synchronize")
        getStatusCodeMessage = try symbol("espeak_ng_GetStatusCodeMessage")
    }

    /// Throws `status` as a `SystemError` naming `operation`, unless it is `ENS_OK`. The
    /// corresponding C function is `espeak_ng_GetStatusCodeMessage`.
    func check(_ status: espeak_ng_STATUS, _ operation: String) throws(SystemError) {
        guard status != ENS_OK else { return }
        var message = [CChar](repeating: 0, count: 256)
        getStatusCodeMessage(status, &message, message.count)
        let text = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        throw SystemError(operation: operation, code: 0, reason: text)
    }

    private static func lastError() -> String {
        dlerror().map { String(cString: $0) } ?? "unknown error"
    }
}
