import CabinAudio
import CabinIO
import CabinOutput
import CabinPlayback
import CabinSession
import Glibc
import Synchronization

/// A live player and what it was loaded with: what `cabin_player` points to. Every call
/// takes `lock`, so the C functions are safe from any thread (one at a time).
final class CPlayer: Sendable {
    private let state: Mutex<State>

    struct State: @unchecked Sendable {
        let player: LivePlayer
        let loaded: SessionLoader.Loaded
        let title: String
        var started = false
        /// `cabin_player_stop` was called: a second is a no-op (LivePlayer restarts its
        /// fade-out on every stop, so a caller's loop that stops until the end never ends).
        var stopping = false
    }

    init(_ state: State) { self.state = Mutex(state) }

    func locked<T>(_ body: (inout State) throws(CFailure) -> T) throws(CFailure) -> T {
        try state.withLock { (state) throws(CFailure) -> T in try body(&state) }
    }

    deinit {
        state.withLock { state in
            state.player.stopNow()
            state.loaded.radio.stop()
        }
    }
}

typealias CPlayerHandle = CHandle<CPlayer>

/// Runs `body` on the player behind `handle`, locked.
func withPlayer(_ handle: OpaquePointer?, _ body: (inout CPlayer.State) throws(CFailure) -> Void) -> Int32 {
    cCall { () throws(CFailure) in try CPlayerHandle.value(handle, "player").locked(body) }
}

@_cdecl("cabin_player_open")
public func cabin_player_open(_ session: OpaquePointer?, _ device: UnsafePointer<CChar>?,
                              _ out: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    cNew(out) { () throws(CFailure) in
        let session = try CSessionHandle.value(session, "session")
        let device = try cOptionalString(device, "device") ?? "default"
        guard !device.isEmpty else { throw CFailure(.argument, "device is empty (NULL is \"default\", \"none\" the silent clock)") }
        do {
            let (player, loaded) = try LivePlayer.open(options: .init(device: device)) { rate, period in
                try session.load(sampleRate: rate, maxBlockFrames: period, progressive: true)
            }
            return CPlayer(.init(player: player, loaded: loaded, title: player.session.title ?? session.title))
        } catch let error as SessionLoader.Failure {
            throw CFailure(.document, "\(error)")
        } catch let error as AudioDeviceError {
            throw CFailure(.device, "\(error)")
        } catch {
            throw CFailure(.io, "\(error)")
        }
    }
}

@_cdecl("cabin_player_start")
public func cabin_player_start(_ handle: OpaquePointer?) -> Int32 {
    withPlayer(handle) { (state) throws(CFailure) in
        guard !state.started else { throw CFailure(.state, "the player has already been started (a player plays once; open another)") }
        do { try state.player.start() } catch { throw CFailure(.device, "\(error)") }
        state.started = true
    }
}

@_cdecl("cabin_player_pause")
public func cabin_player_pause(_ handle: OpaquePointer?) -> Int32 {
    withPlayer(handle) { (state) throws(CFailure) in try started(state); state.player.pause() }
}

@_cdecl("cabin_player_resume")
public func cabin_player_resume(_ handle: OpaquePointer?) -> Int32 {
    withPlayer(handle) { (state) throws(CFailure) in try started(state); state.player.resume() }
}

@_cdecl("cabin_player_stop")
public func cabin_player_stop(_ handle: OpaquePointer?) -> Int32 {
    withPlayer(handle) { (state) throws(CFailure) in
        try started(state)
        guard !state.stopping else { return }
        state.stopping = true
        state.player.stop()
    }
}

@_cdecl("cabin_player_seek")
public func cabin_player_seek(_ handle: OpaquePointer?, _ seconds: Double) -> Int32 {
    withPlayer(handle) { (state) throws(CFailure) in
        guard seconds.isFinite, seconds >= 0 else { throw CFailure(.argument, "seconds must be a finite time from 0, not \(seconds)") }
        try started(state)
        state.player.seek(to: seconds)
    }
}

@_cdecl("cabin_player_set_parameter")
public func cabin_player_set_parameter(_ handle: OpaquePointer?, _ name: UnsafePointer<CChar>?, _ value: Double) -> Int32 {
    withPlayer(handle) { (state) throws(CFailure) in
        let name = try cString(name, "name")
        guard value.isFinite else { throw CFailure(.argument, "\(name): the value must be finite, not \(value)") }
        try parameter(name, in: state)
        state.player.setParameter(name, to: value)
    }
}

@_cdecl("cabin_player_get_parameter")
public func cabin_player_get_parameter(_ handle: OpaquePointer?, _ name: UnsafePointer<CChar>?,
                                       _ value: UnsafeMutablePointer<Double>?) -> Int32 {
    withPlayer(handle) { (state) throws(CFailure) in
        let name = try cString(name, "name")
        try parameter(name, in: state)
        try cStore(state.player.parameterValue(name) ?? .nan, value, "value")
    }
}

@_cdecl("cabin_player_set_volume")
public func cabin_player_set_volume(_ handle: OpaquePointer?, _ bus: UnsafePointer<CChar>?, _ decibels: Double) -> Int32 {
    withPlayer(handle) { (state) throws(CFailure) in
        let bus = try cOptionalString(bus, "bus")
        let buses = state.player.session.config.buses.map(\.name)
        if let bus, !buses.contains(bus) {
            throw CFailure(.notFound, "no bus \"\(bus)\" in this session (it has: \(buses.joined(separator: ", ")))")
        }
        guard !decibels.isNaN, VolumeLevel.contains(Decibels(decibels)) else {
            throw CFailure(.argument, "\(decibels) dB: a volume is from \(VolumeLevel.minimum.value) to \(VolumeLevel.maximum.value) dB, or -INFINITY (silence)")
        }
        do { try state.player.setVolume(Decibels(decibels), bus: bus) } catch { throw CFailure(.argument, "\(error)") }
    }
}

@_cdecl("cabin_player_set_muted")
public func cabin_player_set_muted(_ handle: OpaquePointer?, _ muted: Int32) -> Int32 {
    withPlayer(handle) { (state) throws(CFailure) in state.player.setMuted(muted != 0) }
}

@_cdecl("cabin_player_trigger")
public func cabin_player_trigger(_ handle: OpaquePointer?, _ event: UnsafePointer<CChar>?) -> Int32 {
    withPlayer(handle) { (state) throws(CFailure) in
        let event = try cString(event, "event")
        try started(state)
        do { try state.player.trigger(event) } catch { throw CFailure(.notFound, "\(error)") }
    }
}

@_cdecl("cabin_player_poll")
public func cabin_player_poll(_ handle: OpaquePointer?, _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    withPlayer(handle) { (state) throws(CFailure) in
        guard let out else { throw CFailure(.argument, "out is NULL") }
        let title = state.title
        out.pointee = cCopy(state.player.poll().map { $0.jsonLine(title: title) + "\n" }.joined())
    }
}

@_cdecl("cabin_player_status")
public func cabin_player_status(_ handle: OpaquePointer?, _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    withPlayer(handle) { (state) throws(CFailure) in
        try cStore(cCopy(state.player.statusJSON(title: state.title).serialized(pretty: false)), out, "out")
    }
}

@_cdecl("cabin_player_position")
public func cabin_player_position(_ handle: OpaquePointer?, _ seconds: UnsafeMutablePointer<Double>?) -> Int32 {
    withPlayer(handle) { (state) throws(CFailure) in try cStore(state.player.position, seconds, "seconds") }
}

@_cdecl("cabin_player_is_finished")
public func cabin_player_is_finished(_ handle: OpaquePointer?, _ finished: UnsafeMutablePointer<Int32>?) -> Int32 {
    withPlayer(handle) { (state) throws(CFailure) in try cStore(state.player.isFinished ? 1 : 0, finished, "finished") }
}

@_cdecl("cabin_player_free")
public func cabin_player_free(_ handle: OpaquePointer?) {
    CPlayerHandle.release(handle)
}

private func started(_ state: CPlayer.State) throws(CFailure) {
    guard state.started else { throw CFailure(.state, "the player has not been started (cabin_player_start)") }
}

private func parameter(_ name: String, in state: CPlayer.State) throws(CFailure) {
    let names = state.player.session.config.parameters.map(\.name)
    guard names.contains(name) else {
        throw CFailure(.notFound, "no parameter \"\(name)\" in this session (it has: \(names.isEmpty ? "none" : names.joined(separator: ", ")))")
    }
}
