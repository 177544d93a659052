/// A value on D-Bus, of the kinds Cabin's objects (MPRIS) use: the basic types, a string
/// array (`as`) and a dictionary of variants (`a{sv}`, MPRIS's `Metadata`).
///
/// Thread: any (a value).
public enum BusValue: Sendable, Equatable {
    /// `s`: a UTF-8 string.
    case string(String)
    /// `b`: a boolean.
    case bool(Bool)
    /// `d`: an IEEE 754 double.
    case double(Double)
    /// `x`: a signed 64-bit integer (MPRIS's positions, in microseconds).
    case int64(Int64)
    /// `o`: a D-Bus object path (`/org/cabin/Cabin/session`).
    case objectPath(String)
    /// `as`: an array of strings, in order.
    case strings([String])
    /// `a{sv}`, in order.
    case dictionary([BusEntry])

    /// The D-Bus type signature (`s`, `b`, `d`, `x`, `o`, `as`, `a{sv}`).
    public var signature: String {
        switch self {
        case .string: "s"
        case .bool: "b"
        case .double: "d"
        case .int64: "x"
        case .objectPath: "o"
        case .strings: "as"
        case .dictionary: "a{sv}"
        }
    }

    /// The entry's value when this is a dictionary holding `key`.
    public subscript(key: String) -> BusValue? {
        guard case .dictionary(let entries) = self else { return nil }
        return entries.first { $0.key == key }?.value
    }
}

/// One entry of an `a{sv}` dictionary.
public struct BusEntry: Sendable, Equatable {
    /// The entry's key (`mpris:trackid`, `xesam:title`).
    public var key: String
    /// The entry's value, sent as a variant of its own type.
    public var value: BusValue
    /// The entry `key` → `value`.
    public init(_ key: String, _ value: BusValue) {
        self.key = key
        self.value = value
    }
}

/// An interface an object exports on the bus: its properties, methods and signals.
///
/// Thread: any (a value).
public struct BusInterface: Sendable, Equatable {
    /// How a property announces a change (`org.freedesktop.DBus.Property.EmitsChangedSignal`).
    public enum Change: Sendable, Equatable {
        /// Never announced (MPRIS's `Position`: clients ask).
        case none
        /// `PropertiesChanged` carries the new value.
        case signalled
        /// The value never changes.
        case constant
    }

    /// A property, a method or a signal, by name.
    public enum Member: Sendable, Equatable {
        /// A property called the string, of type `signature` (`s`, `x`, `a{sv}`), announcing its
        /// changes as `change` says; `writable`: a client may set it (`BusObject.set`).
        case property(String, signature: String, change: Change, writable: Bool)
        /// Arguments and results as signatures (`"ox"`, `""`), `names` space-separated for
        /// introspection (`"TrackId Position"`).
        case method(String, arguments: String, results: String, names: String)
        /// A signal called the string, its arguments as signatures (`"x"`), `names`
        /// space-separated for introspection (`"Position"`).
        case signal(String, arguments: String, names: String)
    }

    /// The interface's name (`org.mpris.MediaPlayer2.Player`).
    public var name: String
    /// Its properties, methods and signals, in the order introspection lists them.
    public var members: [Member]

    /// The interface `name` with `members`.
    public init(name: String, members: [Member]) {
        self.name = name
        self.members = members
    }
}

/// An error a bus object answers a call or a property write with: a D-Bus error name
/// (`org.freedesktop.DBus.Error.InvalidArgs`) and one line.
///
/// Thread: any (a value).
public struct BusError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The D-Bus error name (`org.freedesktop.DBus.Error.InvalidArgs`).
    public var name: String
    /// One line for the caller, the error's message on the bus.
    public var message: String
    /// An error named `name` (by default invalid arguments) saying `message`.
    public init(name: String = BusError.invalidArguments, _ message: String) {
        self.name = name
        self.message = message
    }
    public var description: String { "\(name): \(message)" }

    /// The name of an error in the caller's arguments or the value written.
    public static let invalidArguments = "org.freedesktop.DBus.Error.InvalidArgs"
    /// The name of an error for a call or write the object does not support.
    public static let notSupported = "org.freedesktop.DBus.Error.NotSupported"
}

/// What answers the calls to an exported object (see `SessionBus.export`).
///
/// Thread: every method is called on the thread that runs `SessionBus.process`.
public protocol BusObject: AnyObject {
    /// A property's value now; nil for one the object does not know.
    func value(of property: String, in interface: String) -> BusValue?
    /// A write to a writable property (the value has the property's type).
    func set(_ property: String, in interface: String, to value: BusValue) throws(BusError)
    /// A method call with its arguments (basic types, in order); answered with no results.
    func call(_ method: String, in interface: String, arguments: [BusValue]) throws(BusError)
}
