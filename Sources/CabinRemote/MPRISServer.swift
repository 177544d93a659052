import CabinIO
import CabinPlayback
import Glibc
import Synchronization

/// MPRIS for a playing session: `org.mpris.MediaPlayer2.cabin` on the user's session bus,
/// so `playerctl pause`, the desktop's media keys and its sound menu reach Cabin. A control
/// surface beside the control socket (`ControlSurface`), with the same player calls and
/// events; what it shows and how commands map to the player are `MPRISState` and
/// `MPRISCommand`.
///
/// The bus is served on its own thread (`cabin-mpris`: `sd_bus_process`, then `sd_bus_wait`
/// for at most 50 ms so it can stop), never on the render or control thread. Calls arriving
/// there are answered at once from the last state and their commands handed to the control
/// loop, which performs them at its next `update` (within one tick of the loop); each
/// `update` also makes a new state from the player and queues `PropertiesChanged` for what
/// changed (status, metadata when the segment changes, volume, the Can… properties) and
/// `Seeked` after a seek, which the bus thread emits.
///
/// With no session bus `init` throws (`cabin play` then goes on without). A second Cabin
/// takes `org.mpris.MediaPlayer2.cabin.instance<PID>`, as the spec suggests.
///
/// ```swift
/// let mpris = try? MPRISServer(player: player, title: "Drive to Yosemite")
/// while !player.isFinished { mpris?.update(with: player.poll()); usleep(50_000) }
/// mpris?.update(with: player.poll())
/// mpris?.close()
/// ```
///
/// Thread: control thread (the one that calls the player's methods).
public final class MPRISServer: ControlSurface {
    /// The name it owns on the bus.
    public let busName: String
    /// The player the bus's calls act on.
    public let player: LivePlayer
    /// The session's title, the track's `xesam:title` (with the segment).
    public let title: String
    /// Set by MPRIS's `Quit`.
    public private(set) var quitRequested = false
    private let bus: SessionBus
    private let mailbox: Mailbox
    private var thread: RealtimeThread?

    /// Connects to the session bus, exports the object, takes the name and starts serving.
    /// Throws when there is no session bus or it refuses.
    public init(player: LivePlayer, title: String) throws(SystemError) {
        self.player = player
        self.title = title
        let bus = try SessionBus()
        let mailbox = Mailbox(MPRISState(title: title, status: player.status, volume: player.volume,
                                         canSwitchStations: player.stations != nil))
        try bus.export(MPRISObject(mailbox), at: MPRISState.objectPath,
                       interfaces: [MPRISState.rootInterface, MPRISState.playerInterface])
        var name = MPRISState.busName
        if try !bus.requestName(name) {
            name += ".instance\(ThisProcess.id)"
            guard try bus.requestName(name) else { throw SystemError(operation: "sd_bus_request_name \(name)", code: EEXIST) }
        }
        self.bus = bus
        self.mailbox = mailbox
        busName = name
        let thread = RealtimeThread(name: "cabin-mpris", realtime: false) { _ in MPRISServer.serve(bus, mailbox) }
        try thread.start()
        self.thread = thread
    }

    deinit { close() }

    /// Why the bus thread stopped before `close` (the bus went away), if it did.
    public var failure: String? { mailbox.shared.withLock { $0.failure } }

    /// Readable while commands from the bus wait for `update` (an eventfd the bus thread
    /// signals): the control loop wakes on it.
    public var wakeDescriptor: Int32? { mailbox.wake?.descriptor }

    /// Performs the commands that came in, then takes the player's state and queues the
    /// signals for what changed (a `.seeked` event among `events` makes `Seeked`).
    public func update(with events: [PlayerEvent]) {
        mailbox.wake?.drain()
        let commands = mailbox.shared.withLock { shared in
            defer { shared.commands.removeAll() }
            return shared.commands
        }
        for command in commands where command.perform(on: player) { quitRequested = true }
        let now = MPRISState(title: title, status: player.status, volume: player.volume, canSwitchStations: player.stations != nil)
        var seeked: Int64?
        for case .seeked(let time) in events { seeked = MPRISState.microseconds(time) }
        mailbox.shared.withLock { shared in
            for name in now.changes(from: shared.state) where !shared.changed.contains(name) { shared.changed.append(name) }
            shared.state = now
            if let seeked { shared.seeked = seeked }
        }
    }

    /// Emits what is queued, stops the bus thread and leaves the bus (the name goes).
    public func close() {
        guard let thread else { return }
        mailbox.shared.withLock { $0.isStopping = true }
        thread.join()
        self.thread = nil
        bus.close()
    }

    /// The bus thread: serve, emit what the control side queued; at the stop, a last round
    /// and a flush.
    private static func serve(_ bus: SessionBus, _ mailbox: Mailbox) {
        while true {
            let stopping = mailbox.shared.withLock { $0.isStopping }
            do {
                try bus.process(waitMilliseconds: stopping ? 0 : 50)
                let (changed, seeked) = mailbox.shared.withLock { shared in
                    defer { shared.changed.removeAll(); shared.seeked = nil }
                    return (shared.changed, shared.seeked)
                }
                try bus.emitPropertiesChanged(path: MPRISState.objectPath, interface: MPRISState.playerInterfaceName, names: changed)
                if let seeked {
                    try bus.emitSignal(path: MPRISState.objectPath, interface: MPRISState.playerInterfaceName, name: "Seeked",
                                       arguments: [.int64(seeked)])
                }
            } catch {
                mailbox.shared.withLock { $0.failure = "\(error)" }
                return
            }
            if stopping {
                bus.flush()
                return
            }
        }
    }

    /// What the control thread and the bus thread share.
    final class Mailbox: Sendable {
        struct Shared {
            var state: MPRISState
            /// Properties changed since the bus thread last emitted.
            var changed: [String] = []
            /// The position after the last seek, µs, not yet signalled.
            var seeked: Int64?
            /// Requests from the bus, for the control thread.
            var commands: [MPRISCommand] = []
            var isStopping = false
            var failure: String?
        }
        let shared: Mutex<Shared>
        /// Signalled when a command is queued: the control loop wakes on it
        /// (`wakeDescriptor`). nil if no eventfd could be made (the loop's turn then serves).
        let wake: EventFD?
        init(_ state: MPRISState) {
            shared = Mutex(Shared(state: state))
            wake = try? EventFD()
        }
    }

    /// The exported object: answers from the last state, queues commands.
    ///
    /// Thread: the bus thread.
    final class MPRISObject: BusObject {
        let mailbox: Mailbox
        init(_ mailbox: Mailbox) { self.mailbox = mailbox }

        func value(of property: String, in interface: String) -> BusValue? {
            mailbox.shared.withLock { $0.state }.value(of: property, in: interface)
        }

        func set(_ property: String, in interface: String, to value: BusValue) throws(BusError) {
            if let command = try MPRISCommand(setting: property, in: interface, to: value) { queue(command) }
        }

        func call(_ method: String, in interface: String, arguments: [BusValue]) throws(BusError) {
            let state = mailbox.shared.withLock { $0.state }
            if let command = try MPRISCommand(method: method, in: interface, arguments: arguments, state: state) { queue(command) }
        }

        private func queue(_ command: MPRISCommand) {
            mailbox.shared.withLock { $0.commands.append(command) }
            mailbox.wake?.signal()
        }
    }
}
