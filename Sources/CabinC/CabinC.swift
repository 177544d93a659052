import CabinPlayback
import Glibc
import Synchronization

// libcabin.so: Cabin's C API (include/cabin.h), `@_cdecl` functions over the public Swift API
// of CabinPlayback, CabinSession and CabinHaptics. Nothing here is reached from Swift: the
// header is the interface, and every function in it is one `@_cdecl` below. The rules:
//
// - handles are opaque pointers to retained boxes (`CHandle`); `cabin_*_free` releases them;
// - every function that can fail returns a `cabin_status` and leaves its message in a
//   per-thread slot (`cabin_last_error`); NULL pointers, strings that are not UTF-8 and bad
//   values are `CABIN_ERROR_ARGUMENT`, never a trap (no `try!`, no force unwraps of C input);
// - strings given to C are `malloc`ed copies (`cabin_free`), except `cabin_version` and
//   `cabin_last_error`, which the library keeps.
//
// Thread: see each function in include/cabin.h.

/// `cabin_status` values (include/cabin.h).
enum CStatus: Int32, CaseIterable {
    case ok = 0
    case argument = 1
    case document = 2
    case notFound = 3
    case device = 4
    case io = 5
    case state = 6

    var name: String {
        switch self {
        case .ok: "CABIN_OK"
        case .argument: "CABIN_ERROR_ARGUMENT"
        case .document: "CABIN_ERROR_DOCUMENT"
        case .notFound: "CABIN_ERROR_NOT_FOUND"
        case .device: "CABIN_ERROR_DEVICE"
        case .io: "CABIN_ERROR_IO"
        case .state: "CABIN_ERROR_STATE"
        }
    }
}

/// A failure on its way to C: its status and one message (lines joined by newlines).
struct CFailure: Error {
    var status: CStatus
    var message: String
    init(_ status: CStatus, _ message: String) {
        self.status = status
        self.message = message
    }
}

/// The message of the last failed call, one per thread (`pthread` key; freed with its thread).
enum CLastError {
    static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key) { free($0) }
        return key
    }()

    static func set(_ message: String) {
        free(pthread_getspecific(key))
        pthread_setspecific(key, strdup(message))
    }

    static var message: UnsafePointer<CChar>? {
        pthread_getspecific(key).map { UnsafePointer($0.assumingMemoryBound(to: CChar.self)) }
    }
}

/// Runs `body`, turning a `CFailure` into its status and message.
func cCall(_ body: () throws(CFailure) -> Void) -> Int32 {
    do {
        try body()
        return CStatus.ok.rawValue
    } catch {
        CLastError.set(error.message)
        return error.status.rawValue
    }
}

/// A UTF-8 C string as a Swift string: NULL and invalid UTF-8 are argument errors naming `what`.
func cString(_ pointer: UnsafePointer<CChar>?, _ what: String) throws(CFailure) -> String {
    guard let pointer else { throw CFailure(.argument, "\(what) is NULL") }
    guard let string = String(validatingCString: pointer) else { throw CFailure(.argument, "\(what) is not UTF-8") }
    return string
}

/// An optional C string: NULL is nil.
func cOptionalString(_ pointer: UnsafePointer<CChar>?, _ what: String) throws(CFailure) -> String? {
    guard pointer != nil else { return nil }
    return try cString(pointer, what)
}

/// A `malloc`ed copy of `string` for C (`cabin_free`).
func cCopy(_ string: String) -> UnsafeMutablePointer<CChar>? { strdup(string) }

/// Writes `value` through an out-pointer that must not be NULL.
func cStore<T>(_ value: T, _ pointer: UnsafeMutablePointer<T>?, _ what: String) throws(CFailure) {
    guard let pointer else { throw CFailure(.argument, "\(what) is NULL") }
    pointer.pointee = value
}

/// A Swift object behind an opaque C handle.
final class CHandle<Value> {
    let value: Value
    init(_ value: Value) { self.value = value }

    func retained() -> OpaquePointer { OpaquePointer(Unmanaged.passRetained(self).toOpaque()) }

    static func value(_ pointer: OpaquePointer?, _ what: String) throws(CFailure) -> Value {
        guard let pointer else { throw CFailure(.argument, "\(what) is NULL") }
        return Unmanaged<CHandle>.fromOpaque(UnsafeRawPointer(pointer)).takeUnretainedValue().value
    }

    static func release(_ pointer: OpaquePointer?) {
        guard let pointer else { return }
        Unmanaged<CHandle>.fromOpaque(UnsafeRawPointer(pointer)).release()
    }
}

/// Implements `cabin_version()`: Cabin's version, `MAJOR.MINOR.PATCH`, owned by the library. See
/// include/cabin.h.
@_cdecl("cabin_version")
public func cabin_version() -> UnsafePointer<CChar> {
    CVersion.pointer
}

enum CVersion {
    nonisolated(unsafe) static let pointer: UnsafePointer<CChar> = UnsafePointer(strdup(CabinVersion.string)!)
}

/// Implements `cabin_last_error()`: the message of this thread's last failed call (NULL if none), owned by
/// the library. See include/cabin.h.
@_cdecl("cabin_last_error")
public func cabin_last_error() -> UnsafePointer<CChar>? {
    CLastError.message
}

/// Implements `cabin_status_name(status)`: the status's name (`CABIN_ERROR_DOCUMENT`), or
/// `CABIN_UNKNOWN_STATUS`. See include/cabin.h.
@_cdecl("cabin_status_name")
public func cabin_status_name(_ status: Int32) -> UnsafePointer<CChar> {
    CStatusNames.pointers[Int(CStatus(rawValue: status)?.rawValue ?? -1) + 1]
}

enum CStatusNames {
    /// "CABIN_UNKNOWN_STATUS" first, then each status by value.
    nonisolated(unsafe) static let pointers: [UnsafePointer<CChar>] =
        (["CABIN_UNKNOWN_STATUS"] + CStatus.allCases.map(\.name)).map { UnsafePointer(strdup($0)!) }
}

/// Implements `cabin_free(pointer)`: releases a string the library returned through a `char **` (NULL:
/// nothing). See include/cabin.h.
@_cdecl("cabin_free")
public func cabin_free(_ pointer: UnsafeMutableRawPointer?) {
    free(pointer)
}

/// A mutual-exclusion lock for handles that several C threads may share.
final class CLock: Sendable {
    private let mutex = Mutex(())
    func locked<T>(_ body: () -> T) -> T { mutex.withLock { _ in body() } }
}

/// Makes a handle for C: checks `out`, runs `make`, stores the new handle in `*out`.
func cNew<Value>(_ out: UnsafeMutablePointer<OpaquePointer?>?, _ make: () throws(CFailure) -> Value) -> Int32 {
    cCall { () throws(CFailure) in
        guard let out else { throw CFailure(.argument, "out is NULL") }
        out.pointee = CHandle(try make()).retained()
    }
}
