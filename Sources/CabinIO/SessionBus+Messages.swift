import CCabinSDBus
import Glibc

/// The vtable of an exported interface and the three callbacks every entry points at; they
/// find the `BusObject` in their user data and dispatch by name.
extension SessionBus {
    static func vtable(for interface: BusInterface) -> UnsafeMutablePointer<sd_bus_vtable>? {
        // The C strings live while `cabin_bus_vtable_new` copies them.
        var strings: [UnsafeMutablePointer<CChar>?] = []
        defer { strings.forEach { free($0) } }
        func c(_ s: String) -> UnsafePointer<CChar>? {
            let p = strdup(s)
            strings.append(p)
            return UnsafePointer(p)
        }
        let members: [cabin_bus_member] = interface.members.map { member in
            switch member {
            case .property(let name, let signature, let change, let writable):
                let kind = writable ? CABIN_BUS_WRITABLE_PROPERTY : CABIN_BUS_PROPERTY
                let flag = switch change {
                case .none: CABIN_BUS_CHANGE_NONE
                case .signalled: CABIN_BUS_CHANGE_SIGNALLED
                case .constant: CABIN_BUS_CHANGE_CONSTANT
                }
                return cabin_bus_member(kind: kind, name: c(name), signature: c(signature), result: nil, names: nil, change: flag)
            case .method(let name, let arguments, let results, let names):
                return cabin_bus_member(kind: CABIN_BUS_METHOD, name: c(name), signature: c(arguments), result: c(results),
                                        names: c(names), change: CABIN_BUS_CHANGE_NONE)
            case .signal(let name, let arguments, let names):
                return cabin_bus_member(kind: CABIN_BUS_SIGNAL, name: c(name), signature: c(arguments), result: nil,
                                        names: c(names), change: CABIN_BUS_CHANGE_NONE)
            }
        }
        return members.withUnsafeBufferPointer { list in
            cabin_bus_vtable_new(list.baseAddress, list.count, { _, _, interface, property, reply, user, error in
                SessionBus.get(interface, property, reply, user, error)
            }, { _, _, interface, property, value, user, error in
                SessionBus.set(interface, property, value, user, error)
            }, { message, user, error in
                SessionBus.call(message, user, error)
            })
        }
    }

    private static func object(_ user: UnsafeMutableRawPointer?) -> any BusObject {
        Unmanaged<Export>.fromOpaque(user!).takeUnretainedValue().object
    }

    private static func fail(_ error: BusError, _ out: UnsafeMutablePointer<sd_bus_error>?) -> Int32 {
        sd_bus_error_set(out, error.name, error.message)
    }

    private static func get(_ interface: UnsafePointer<CChar>?, _ property: UnsafePointer<CChar>?, _ reply: OpaquePointer?,
                            _ user: UnsafeMutableRawPointer?, _ error: UnsafeMutablePointer<sd_bus_error>?) -> Int32 {
        let name = String(cString: property!)
        guard let value = object(user).value(of: name, in: String(cString: interface!)) else {
            return fail(BusError(name: "org.freedesktop.DBus.Error.UnknownProperty", "no property \(name)"), error)
        }
        return append(value, to: reply)
    }

    private static func set(_ interface: UnsafePointer<CChar>?, _ property: UnsafePointer<CChar>?, _ message: OpaquePointer?,
                            _ user: UnsafeMutableRawPointer?, _ error: UnsafeMutablePointer<sd_bus_error>?) -> Int32 {
        var type: CChar = 0
        guard sd_bus_message_peek_type(message, &type, nil) > 0, let value = readBasic(type, from: message) else {
            return fail(BusError("the value is not of a basic type"), error)
        }
        do { try object(user).set(String(cString: property!), in: String(cString: interface!), to: value) } catch let failure {
            return fail(failure, error)
        }
        return 0
    }

    private static func call(_ message: OpaquePointer?, _ user: UnsafeMutableRawPointer?,
                             _ error: UnsafeMutablePointer<sd_bus_error>?) -> Int32 {
        let member = String(cString: sd_bus_message_get_member(message))
        let interface = String(cString: sd_bus_message_get_interface(message))
        var arguments: [BusValue] = []
        while true {
            var type: CChar = 0
            let r = sd_bus_message_peek_type(message, &type, nil)
            if r < 0 { return r }
            if r == 0 { break }
            guard let value = readBasic(type, from: message) else {
                return fail(BusError("\(member): an argument of an unexpected type"), error)
            }
            arguments.append(value)
        }
        do { try object(user).call(member, in: interface, arguments: arguments) } catch let failure {
            return fail(failure, error)
        }
        var reply: OpaquePointer?
        var r = sd_bus_message_new_method_return(message, &reply)
        if r < 0 { return r }
        defer { sd_bus_message_unref(reply) }
        r = sd_bus_send(nil, reply, nil)
        return r < 0 ? r : 1
    }

    /// Reads the next value of basic `type` (`s o b d x i u`), or nil for another type.
    private static func readBasic(_ type: CChar, from message: OpaquePointer?) -> BusValue? {
        switch UInt8(bitPattern: type) {
        case UInt8(ascii: "s"), UInt8(ascii: "o"):
            var text: UnsafePointer<CChar>?
            guard sd_bus_message_read_basic(message, type, &text) > 0, let text else { return nil }
            return type == CChar(UInt8(ascii: "s")) ? .string(String(cString: text)) : .objectPath(String(cString: text))
        case UInt8(ascii: "b"):
            var flag: Int32 = 0
            guard sd_bus_message_read_basic(message, type, &flag) > 0 else { return nil }
            return .bool(flag != 0)
        case UInt8(ascii: "d"):
            var x = 0.0
            guard sd_bus_message_read_basic(message, type, &x) > 0 else { return nil }
            return .double(x)
        case UInt8(ascii: "x"):
            var x: Int64 = 0
            guard sd_bus_message_read_basic(message, type, &x) > 0 else { return nil }
            return .int64(x)
        case UInt8(ascii: "i"):
            var x: Int32 = 0
            guard sd_bus_message_read_basic(message, type, &x) > 0 else { return nil }
            return .int64(Int64(x))
        case UInt8(ascii: "u"):
            var x: UInt32 = 0
            guard sd_bus_message_read_basic(message, type, &x) > 0 else { return nil }
            return .int64(Int64(x))
        default:
            return nil
        }
    }

    /// Appends `value` to `message`; a negative errno on failure. The corresponding C
    /// functions are `sd_bus_message_append_basic` and `sd_bus_message_open_container`.
    static func append(_ value: BusValue, to message: OpaquePointer?) -> Int32 {
        func basic(_ type: Character, _ p: UnsafeRawPointer) -> Int32 {
            sd_bus_message_append_basic(message, CChar(UInt8(ascii: type.unicodeScalars.first!)), p)
        }
        func container(_ type: Character, _ contents: String, _ body: () -> Int32) -> Int32 {
            var r = sd_bus_message_open_container(message, CChar(UInt8(ascii: type.unicodeScalars.first!)), contents)
            if r < 0 { return r }
            r = body()
            if r < 0 { return r }
            return sd_bus_message_close_container(message)
        }
        switch value {
        case .string(let s): return s.withCString { basic("s", $0) }
        case .objectPath(let s): return s.withCString { basic("o", $0) }
        case .bool(let b):
            var flag: Int32 = b ? 1 : 0
            return basic("b", &flag)
        case .double(var x): return basic("d", &x)
        case .int64(var x): return basic("x", &x)
        case .strings(let list):
            return container("a", "s") {
                for s in list {
                    let r = s.withCString { basic("s", $0) }
                    if r < 0 { return r }
                }
                return 0
            }
        case .dictionary(let entries):
            return container("a", "{sv}") {
                for entry in entries {
                    let r = container("e", "sv") {
                        let r = entry.key.withCString { basic("s", $0) }
                        if r < 0 { return r }
                        return container("v", entry.value.signature) { append(entry.value, to: message) }
                    }
                    if r < 0 { return r }
                }
                return 0
            }
        }
    }
}
