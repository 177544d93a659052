import CabinIO
import CabinOutput
import CabinAudio
import CabinSession

/// The listener's volumes: the master and each bus, in dB on top of what the session sets
/// (its cues and the transport's fades never move them), and a mute of the master.
public struct PlayerVolumes: Sendable, Equatable {
    /// The master volume, in dB (0: as the session mixes it).
    public var master: Decibels = 0
    /// Whether the master is muted (the volumes are kept and come back on unmute).
    public var muted = false
    /// Buses set away from 0 dB, by name.
    public var buses: [String: Decibels] = [:]
    /// A fade on the master on top of its volume (the sleep timer's, `SleepTimer`).
    public var fade: Decibels = 0

    /// Every volume at 0 dB, unmuted, no fade.
    public init() {}
}

/// A named thing an embedder, a key or the control socket makes happen while a session
/// plays (`player.trigger("leave-focus")`). Whoever knows how to perform it registers it
/// (`LivePlayer.register`); a name nobody registered is an error, never silently nothing.
///
/// Thread: `perform` runs on the thread that calls `trigger`, inside it, holding the
/// player's control lock (it may call the player again).
public struct LiveEvent {
    /// The name it is triggered by (`LivePlayer.trigger(_:)`); registering another event
    /// by the same name replaces it.
    public var name: String
    /// One line for listings (`cabin ctl help`).
    public var summary: String
    /// What the event does, given the player that triggered it.
    public var perform: (LivePlayer) -> Void

    /// An event called `name`, listed with `summary`, that runs `perform`.
    public init(name: String, summary: String, perform: @escaping (LivePlayer) -> Void) {
        self.name = name
        self.summary = summary
        self.perform = perform
    }
}

/// Switches the radio's stations or tracks (the radio of a session registers itself as
/// `LivePlayer.stations`). Errors print as one line.
///
/// Thread: control thread.
public protocol StationSwitching: AnyObject {
    /// Moves to the next station or track; throws (a `PlayerControlError`) when there is
    /// nothing to switch.
    func nextStation() throws
    /// Moves to the previous station or track; throws as `nextStation()` does.
    func previousStation() throws
}

/// Why a control call on a playing session was refused (`nextStation` with no radio, a
/// volume for a bus the session lacks, a live event it does not have, a latency the device
/// cannot change to), as one line to show.
public struct PlayerControlError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The one line: what was asked and why it cannot be done.
    public var description: String
    /// An error that reads `description`, one line.
    public init(_ description: String) { self.description = description }
}

/// Why `LivePlayer.start` refused: a player plays once.
public enum PlayerStartError: Error, Sendable, CustomStringConvertible {
    /// `start` was called before, and the session is still playing.
    case alreadyStarted
    /// The session has ended (or `stopNow` was called): open a new player to play again.
    case ended
    /// The render thread could not be created.
    case thread(SystemError)

    public var description: String {
        switch self {
        case .alreadyStarted: "the player has already started"
        case .ended: "the session has ended: a player plays once; open a new one to play again"
        case .thread(let error): "could not start the render thread: \(error)"
        }
    }
}

extension LivePlayer {
    /// The listener's volumes now.
    public var volume: PlayerVolumes { control.withLock { volumes } }

    /// Sets the master volume (`bus` nil) or a bus's, in dB (within `VolumeLevel.minimum` …
    /// `VolumeLevel.maximum`; −∞ is silence). The mixer ramps to it over 50 ms. Throws for a bus the session
    /// does not have.
    public func setVolume(_ decibels: Decibels, bus: String? = nil) throws(PlayerControlError) {
        try control.withLock { () throws(PlayerControlError) in try setVolumeLocked(decibels, bus: bus) }
    }

    private func setVolumeLocked(_ decibels: Decibels, bus: String?) throws(PlayerControlError) {
        let level = VolumeLevel.clamped(decibels)
        if let bus {
            guard session.config.bus(named: bus) != nil else {
                throw PlayerControlError("no bus named '\(bus)' (buses: \(session.config.buses.map(\.name).joined(separator: ", ")))")
            }
            volumes.buses[bus] = level
        } else {
            volumes.master = level
        }
        applyVolumes(on: currentSlot.runner.handle)
        controlEvents.append(.volumeChanged(bus: bus, decibels: level.value, muted: volumes.muted))
    }

    /// Mutes or unmutes the master (the volume is kept for unmuting).
    public func setMuted(_ muted: Bool) {
        control.withLock {
            volumes.muted = muted
            applyVolumes(on: currentSlot.runner.handle)
            controlEvents.append(.volumeChanged(bus: nil, decibels: volumes.master.value, muted: muted))
        }
    }

    /// Sets the fade on the master (on top of its volume; no event). For `SleepTimer`.
    public func setFade(_ level: Decibels) {
        control.withLock {
            guard level != volumes.fade else { return }
            volumes.fade = level
            applyVolumes(on: currentSlot.runner.handle)
        }
    }

    /// Sends the volumes to a runner's mixer (the current one, or a seek's new one).
    func applyVolumes(on handle: MixerHandle) {
        handle.setVolume(volumes.muted ? .silence : Decibels(volumes.master.value + volumes.fade.value), bus: nil)
        for (name, level) in volumes.buses {
            if let id = session.config.bus(named: name) { handle.setVolume(level, bus: id) }
        }
    }

    /// Makes `event` triggerable by its name (replacing one of the same name).
    public func register(_ event: LiveEvent) {
        control.withLock { liveEvents[event.name] = event }
    }

    /// The live events this session answers to, sorted by name.
    public var liveEventList: [LiveEvent] { control.withLock { liveEvents.values.sorted { $0.name < $1.name } } }

    /// Performs the live event `name` and reports it (`PlayerEvent.triggered`); a name no
    /// one registered is an error naming those that are.
    public func trigger(_ name: String) throws(PlayerControlError) {
        try control.withLock { () throws(PlayerControlError) in try triggerLocked(name) }
    }

    private func triggerLocked(_ name: String) throws(PlayerControlError) {
        guard let event = liveEvents[name] else {
            let known = liveEventList.map(\.name)
            throw PlayerControlError("no live event '\(name)' in this session"
                + (known.isEmpty ? " (it has none)" : " (it has: \(known.joined(separator: ", ")))"))
        }
        event.perform(self)
        controlEvents.append(.triggered(name: name, time: position))
    }

    /// The radio's next station or track; an error when the session has no radio.
    public func nextStation() throws(PlayerControlError) {
        try control.withLock { () throws(PlayerControlError) in try switchStation(forward: true) }
    }

    /// The radio's previous station or track; an error when the session has no radio.
    public func previousStation() throws(PlayerControlError) {
        try control.withLock { () throws(PlayerControlError) in try switchStation(forward: false) }
    }

    private func switchStation(forward: Bool) throws(PlayerControlError) {
        guard let stations else {
            throw PlayerControlError(radio?.isEmpty ?? true ? "no radio in this session"
                                     : "this session's radio is one internet station: give a playlist (a folder, .m3u, .m3u8 or .pls) to switch")
        }
        do { try forward ? stations.nextStation() : stations.previousStation() } catch { throw PlayerControlError("\(error)") }
    }

    /// The names and values of the session's parameters now (`speed` …), in its order.
    public var parameterValues: [(name: String, value: Double)] {
        control.withLock { session.config.parameters.compactMap { p in parameterValue(p.name).map { (p.name, $0) } } }
    }
}
