import CabinPlayback

/// A way in from outside to a playing session — the control socket (`ControlServer`), MPRIS
/// on the session bus (`MPRISServer`) — beside the player, never a switch inside it. The
/// control loop hands every surface the events of each `LivePlayer.poll()` a few times a
/// second; a surface acts on the player then, on the control thread (work of its own, such
/// as a bus, runs on its own thread and hands its requests over here).
///
/// Thread: control thread.
public protocol ControlSurface: AnyObject {
    /// Called after every `poll()` with its events (often none): pass them on, carry out the
    /// requests that came in.
    func update(with events: [PlayerEvent])
    /// Whether a client asked to quit (the loop then runs no `--then`).
    var quitRequested: Bool { get }
    /// Stops serving (after the last `update`).
    func close()
    /// What the surface has to tell the person running the session, one line each, each
    /// thing once (e.g. clients refused at a limit); the loop prints them as warnings.
    func takeNotices() -> [String]
    /// A descriptor that is readable while requests from the surface's own thread wait for
    /// the control thread (MPRIS's bus): the loop wakes on it, so they are carried out at
    /// once rather than at its next turn (up to a second apart for a bed left on). nil: the
    /// surface's requests come through the loop's own waits (the control socket is served
    /// there).
    var wakeDescriptor: Int32? { get }
}

extension ControlSurface {
    /// Nothing to say: the default for a surface that refuses no one.
    public func takeNotices() -> [String] { [] }
    /// None: the default for a surface served on the control thread.
    public var wakeDescriptor: Int32? { nil }
}

extension ControlServer: ControlSurface {
    /// Publishes the events to the observing clients (`publish(_:)`).
    public func update(with events: [PlayerEvent]) { publish(events) }
}
