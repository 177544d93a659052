import CCabinSDBus
import Glibc

/// A connection to the user's session bus through sd-bus (libsystemd), to own a well-known
/// name and export objects on it (MPRIS: `org.mpris.MediaPlayer2.cabin`).
///
/// Where the bus is: `$DBUS_SESSION_BUS_ADDRESS`, else `$XDG_RUNTIME_DIR/bus` (sd-bus's
/// rule). There may be none (a headless box, a service without a login session): `init`
/// throws then, and the caller goes on without.
///
/// ```swift
/// let bus = try SessionBus()
/// guard try bus.requestName("org.example.Thing") else { /* someone else has it */ }
/// try bus.export(thing, at: "/org/example/Thing", interfaces: [thingInterface])
/// while running { try bus.process(waitMilliseconds: 50) }   // calls reach `thing` here
/// bus.close()
/// ```
///
/// Thread: one thread at a time (sd-bus objects are not thread-safe): the thread that runs
/// `process` also calls `emit…`; `BusObject` calls arrive on it, inside `process`.
public final class SessionBus: @unchecked Sendable {
    private var bus: OpaquePointer?
    private var slots: [OpaquePointer] = []
    private var vtables: [UnsafeMutablePointer<sd_bus_vtable>] = []
    private var exports: [Unmanaged<Export>] = []

    /// Connects to the session bus. The corresponding C function is `sd_bus_open_user`.
    public init() throws(SystemError) {
        var bus: OpaquePointer?
        try Self.check("sd_bus_open_user (the session bus)", sd_bus_open_user(&bus))
        self.bus = bus
    }

    deinit { close() }

    /// Takes the well-known `name`; false when another connection owns it. The
    /// corresponding C function is `sd_bus_request_name`.
    public func requestName(_ name: String) throws(SystemError) -> Bool {
        let r = sd_bus_request_name(bus, name, 0)
        if r == -EEXIST { return false }
        try Self.check("sd_bus_request_name \(name)", r)
        return true
    }

    /// The connection's unique name on the bus (`:1.42`). The corresponding C function is
    /// `sd_bus_get_unique_name`.
    public var uniqueName: String? {
        var name: UnsafePointer<CChar>?
        guard sd_bus_get_unique_name(bus, &name) >= 0, let name else { return nil }
        return String(cString: name)
    }

    /// Exports `object` at `path` with `interfaces` (plus the standard Properties,
    /// Introspectable and Peer interfaces sd-bus adds). The bus keeps the object until
    /// `close`. The corresponding C function is `sd_bus_add_object_vtable`.
    public func export(_ object: any BusObject, at path: String, interfaces: [BusInterface]) throws(SystemError) {
        let box = Unmanaged.passRetained(Export(object))
        exports.append(box)
        for interface in interfaces {
            guard let vtable = Self.vtable(for: interface) else { throw SystemError(operation: "sd-bus vtable", code: ENOMEM) }
            vtables.append(vtable)
            var slot: OpaquePointer?
            try Self.check("sd_bus_add_object_vtable \(path) \(interface.name)",
                           sd_bus_add_object_vtable(bus, &slot, path, interface.name, vtable, box.toOpaque()))
            if let slot { slots.append(slot) }
        }
    }

    /// Handles everything that has arrived, then waits up to `waitMilliseconds` for more
    /// (returning early when it does). Throws when the connection is lost. The corresponding
    /// C functions are `sd_bus_process` and `sd_bus_wait`.
    public func process(waitMilliseconds: Int) throws(SystemError) {
        while true {
            let r = sd_bus_process(bus, nil)
            try Self.check("sd_bus_process", r)
            if r == 0 { break }
        }
        let r = sd_bus_wait(bus, UInt64(max(0, waitMilliseconds)) * 1000)
        if r != -EINTR { try Self.check("sd_bus_wait", r) }
    }

    /// Emits `org.freedesktop.DBus.Properties.PropertiesChanged` for `names` (their values
    /// asked of the object now). The corresponding C function is
    /// `sd_bus_emit_properties_changed_strv`.
    public func emitPropertiesChanged(path: String, interface: String, names: [String]) throws(SystemError) {
        guard !names.isEmpty else { return }
        let copies = names.map { strdup($0) }
        defer { copies.forEach { free($0) } }
        var list = copies + [nil]
        let r = list.withUnsafeMutableBufferPointer { sd_bus_emit_properties_changed_strv(bus, path, interface, $0.baseAddress) }
        try Self.check("sd_bus_emit_properties_changed \(interface) \(names.joined(separator: ","))", r)
    }

    /// Emits the signal `name` of `interface` from `path` with `arguments`. The corresponding
    /// C functions are `sd_bus_message_new_signal` and `sd_bus_send`.
    public func emitSignal(path: String, interface: String, name: String, arguments: [BusValue]) throws(SystemError) {
        var message: OpaquePointer?
        try Self.check("sd_bus_message_new_signal \(name)", sd_bus_message_new_signal(bus, &message, path, interface, name))
        defer { sd_bus_message_unref(message) }
        for argument in arguments { try Self.check("sd_bus_message_append \(name)", Self.append(argument, to: message)) }
        try Self.check("sd_bus_send \(name)", sd_bus_send(bus, message, nil))
    }

    /// Sends what is queued (blocking until written). The corresponding C function is `sd_bus_flush`.
    public func flush() {
        if bus != nil { _ = sd_bus_flush(bus) }
    }

    /// Removes the objects, flushes and closes the connection (the names go with it). The
    /// corresponding C functions are `sd_bus_slot_unref` and `sd_bus_flush_close_unref`.
    public func close() {
        for slot in slots { sd_bus_slot_unref(slot) }
        slots.removeAll()
        if bus != nil { sd_bus_flush_close_unref(bus) }
        bus = nil
        for vtable in vtables { cabin_bus_vtable_free(vtable) }
        vtables.removeAll()
        for box in exports { box.release() }
        exports.removeAll()
    }

    private static func check(_ operation: @autoclosure () -> String, _ r: Int32) throws(SystemError) {
        if r < 0 { throw SystemError(operation: operation(), code: -r) }
    }

    /// The object an exported vtable's callbacks reach (their user data).
    final class Export {
        let object: any BusObject
        init(_ object: any BusObject) { self.object = object }
    }
}
