import CabinAudio
import CabinIO
import CabinOutput
import CabinPlayback
import CabinRemote
import CabinSession
import Glibc
import Synchronization

/// A live player and what it was loaded with: what `cabin_player` points to. Every call
/// takes `lock`, so the C functions are safe from any thread (one at a time).
final class CPlayer: Sendable {
    private let state: Mutex<State>
    /// Callback mode's output (`cabin_player_open_callback`): `cabin_player_render` reaches it
    /// without the lock, from the app's audio thread.
    let callback: CallbackOutput?

    struct State: @unchecked Sendable {
        let player: LivePlayer
        let loaded: SessionLoader.Loaded
        let title: String
        var started = false
    }

    init(_ state: State, callback: CallbackOutput? = nil) {
        self.state = Mutex(state)
        self.callback = callback
    }

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

/// Implements `cabin_player_open(session, device, out)`: opens a sound device and loads the session at its
/// rate; nothing plays before start. See include/cabin.h.
@_cdecl("cabin_player_open")
public func cabin_player_open(_ session: OpaquePointer?, _ device: UnsafePointer<CChar>?,
                              _ out: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    cNew(out) { () throws(CFailure) in
        let session = try CSessionHandle.value(session, "session")
        let device = try cOptionalString(device, "device") ?? "default"
        guard !device.isEmpty else { throw CFailure(.argument, "device is empty (NULL is \"default\", \"none\" the silent clock)") }
        do throws(LivePlayer.OpenError<any Error>) {
            let (player, loaded) = try LivePlayer.open(options: .init(device: device)) { rate, period in
                try session.load(sampleRate: rate, maxBlockFrames: period, progressive: true)
            }
            return CPlayer(.init(player: player, loaded: loaded, title: player.session.title ?? session.title))
        } catch {
            switch error {
            case .device(let error): throw CFailure(.device, "\(error)")
            case .load(let error): throw CFailure(error is SessionLoader.Failure ? .document : .io, "\(error)")
            }
        }
    }
}

/// Implements `cabin_player_open_callback(session, sample_rate, channels, max_frames, latency_frames, out)`:
/// a player rendered by the caller's audio callback. See include/cabin.h.
@_cdecl("cabin_player_open_callback")
public func cabin_player_open_callback(_ session: OpaquePointer?, _ sampleRate: Int32, _ channels: Int32, _ maxFrames: Int32,
                                       _ latencyFrames: Int32, _ out: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    cNew(out) { () throws(CFailure) in
        let session = try CSessionHandle.value(session, "session")
        let rate = try cSampleRate(sampleRate)
        guard (1...8).contains(channels) else { throw CFailure(.argument, "channels must be 1 to 8, not \(channels)") }
        guard (1...8192).contains(maxFrames) else { throw CFailure(.argument, "max_frames must be 1 to 8192, not \(maxFrames)") }
        guard (0...(1 << 20)).contains(latencyFrames) else {
            throw CFailure(.argument, "latency_frames must be 0 to 1048576, not \(latencyFrames)")
        }
        let output = CallbackOutput(sampleRate: Int(rate), channels: Int(channels), maximumFrames: Int(maxFrames),
                                    latencyFrames: Int(latencyFrames))
        let loaded: SessionLoader.Loaded
        // Every sound decoded before it returns: a callback may ask faster than real time.
        do { loaded = try session.load(sampleRate: rate, maxBlockFrames: Int(maxFrames), progressive: false) } catch {
            throw CFailure(.document, "\(error)")
        }
        do {
            let player = try LivePlayer(session: loaded.compiled, callback: output)
            player.radio = loaded.radio
            if loaded.radio.canSwitch { player.stations = loaded.radio }
            return CPlayer(.init(player: player, loaded: loaded, title: player.session.title ?? session.title), callback: output)
        } catch {
            loaded.radio.stop()
            throw CFailure(.device, "\(error)")
        }
    }
}

/// Implements `cabin_player_render(player, out, frames)`: the next frames of a callback-mode player.
/// Real-time safe: no lock, no allocation, no error message (a NULL argument or a player
/// that is not in callback mode only returns its status).
@_cdecl("cabin_player_render")
public func cabin_player_render(_ handle: OpaquePointer?, _ samples: UnsafeMutablePointer<Float>?, _ frames: Int) -> Int32 {
    guard let handle, let samples, frames >= 0 else { return CStatus.argument.rawValue }
    return Unmanaged<CPlayerHandle>.fromOpaque(UnsafeRawPointer(handle))._withUnsafeGuaranteedRef { box in
        guard let callback = box.value.callback else { return CStatus.state.rawValue }
        callback.render(into: samples, frames: frames)
        return CStatus.ok.rawValue
    }
}

/// Implements `cabin_player_start(player)`: starts playing; a player plays once. See include/cabin.h.
@_cdecl("cabin_player_start")
public func cabin_player_start(_ handle: OpaquePointer?) -> Int32 {
    cCall { () throws(CFailure) in
        let player = try CPlayerHandle.value(handle, "player")
        let live = try player.locked { (state) throws(CFailure) -> LivePlayer in
            guard !state.started else { throw CFailure(.state, "the player has already been started (a player plays once; open another)") }
            do { try state.player.start() } catch { throw CFailure(.device, "\(error)") }
            state.started = true
            return state.player
        }
        // Callback mode: once this returns, cabin_player_render plays the session.
        if player.callback != nil { live.waitUntilStarted(timeout: 5) }
    }
}

/// Implements `cabin_player_pause(player)`: fades out and holds the session's clock. See include/cabin.h.
@_cdecl("cabin_player_pause")
public func cabin_player_pause(_ handle: OpaquePointer?) -> Int32 {
    withPlayer(handle) { (state) throws(CFailure) in try started(state); state.player.pause() }
}

/// Implements `cabin_player_resume(player)`: fades back in from a pause. See include/cabin.h.
@_cdecl("cabin_player_resume")
public func cabin_player_resume(_ handle: OpaquePointer?) -> Int32 {
    withPlayer(handle) { (state) throws(CFailure) in try started(state); state.player.resume() }
}

/// Implements `cabin_player_stop(player)`: fades out and ends the session (reason `stopped`); a second stop
/// does nothing. See include/cabin.h.
@_cdecl("cabin_player_stop")
public func cabin_player_stop(_ handle: OpaquePointer?) -> Int32 {
    withPlayer(handle) { (state) throws(CFailure) in
        try started(state)
        state.player.stop()  // asked again while it fades: nothing (LivePlayer.stop)
    }
}

/// Implements `cabin_player_seek(player, seconds)`: moves to `seconds` on the timeline (clamped to it), with
/// the transport's fade. See include/cabin.h.
@_cdecl("cabin_player_seek")
public func cabin_player_seek(_ handle: OpaquePointer?, _ seconds: Double) -> Int32 {
    withPlayer(handle) { (state) throws(CFailure) in
        guard seconds.isFinite, seconds >= 0 else { throw CFailure(.argument, "seconds must be a finite time from 0, not \(seconds)") }
        try started(state)
        state.player.seek(to: seconds)
    }
}

/// Implements `cabin_player_set_parameter(player, name, value)`: sets a session parameter, clamped to its
/// range. See include/cabin.h.
@_cdecl("cabin_player_set_parameter")
public func cabin_player_set_parameter(_ handle: OpaquePointer?, _ name: UnsafePointer<CChar>?, _ value: Double) -> Int32 {
    withPlayer(handle) { (state) throws(CFailure) in
        let name = try cString(name, "name")
        guard value.isFinite else { throw CFailure(.argument, "\(name): the value must be finite, not \(value)") }
        try parameter(name, in: state)
        state.player.setParameter(name, to: value)
    }
}

/// Implements `cabin_player_get_parameter(player, name, value)`: reads a session parameter (the value set,
/// else the timeline's). See include/cabin.h.
@_cdecl("cabin_player_get_parameter")
public func cabin_player_get_parameter(_ handle: OpaquePointer?, _ name: UnsafePointer<CChar>?,
                                       _ value: UnsafeMutablePointer<Double>?) -> Int32 {
    withPlayer(handle) { (state) throws(CFailure) in
        let name = try cString(name, "name")
        try parameter(name, in: state)
        try cStore(state.player.parameterValue(name) ?? .nan, value, "value")
    }
}

/// Implements `cabin_player_set_volume(player, bus, decibels)`: sets the listener's volume of the master (bus
/// NULL) or a bus, in dB. See include/cabin.h.
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

/// Implements `cabin_player_set_muted(player, muted)`: mutes or unmutes the master, keeping its level. See
/// include/cabin.h.
@_cdecl("cabin_player_set_muted")
public func cabin_player_set_muted(_ handle: OpaquePointer?, _ muted: Int32) -> Int32 {
    withPlayer(handle) { (state) throws(CFailure) in state.player.setMuted(muted != 0) }
}

/// Implements `cabin_player_trigger(player, event)`: triggers a live event the session answers to (`leave-
/// focus`). See include/cabin.h.
@_cdecl("cabin_player_trigger")
public func cabin_player_trigger(_ handle: OpaquePointer?, _ event: UnsafePointer<CChar>?) -> Int32 {
    withPlayer(handle) { (state) throws(CFailure) in
        let event = try cString(event, "event")
        try started(state)
        do { try state.player.trigger(event) } catch { throw CFailure(.notFound, "\(error)") }
    }
}

/// Implements `cabin_player_poll(player, out_lines)`: the events since the last poll, as JSON lines; also
/// releases what the audio thread finished with. See include/cabin.h.
@_cdecl("cabin_player_poll")
public func cabin_player_poll(_ handle: OpaquePointer?, _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    withPlayer(handle) { (state) throws(CFailure) in
        guard let out else { throw CFailure(.argument, "out is NULL") }
        let title = state.title
        out.pointee = cCopy(state.player.poll().map { $0.jsonLine(title: title) + "\n" }.joined())
    }
}

/// Implements `cabin_player_status(player, out_json)`: the player's status as the control socket's `status`
/// answers it, as JSON. See include/cabin.h.
@_cdecl("cabin_player_status")
public func cabin_player_status(_ handle: OpaquePointer?, _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    withPlayer(handle) { (state) throws(CFailure) in
        try cStore(cCopy(state.player.statusJSON(title: state.title).serialized(pretty: false)), out, "out")
    }
}

/// Implements `cabin_player_position(player, seconds)`: where the listener is on the timeline, in seconds.
/// See include/cabin.h.
@_cdecl("cabin_player_position")
public func cabin_player_position(_ handle: OpaquePointer?, _ seconds: UnsafeMutablePointer<Double>?) -> Int32 {
    withPlayer(handle) { (state) throws(CFailure) in try cStore(state.player.position, seconds, "seconds") }
}

/// Implements `cabin_player_is_finished(player, finished)`: whether the session has ended (its end, a stop,
/// or a lost device). See include/cabin.h.
@_cdecl("cabin_player_is_finished")
public func cabin_player_is_finished(_ handle: OpaquePointer?, _ finished: UnsafeMutablePointer<Int32>?) -> Int32 {
    withPlayer(handle) { (state) throws(CFailure) in try cStore(state.player.isFinished ? 1 : 0, finished, "finished") }
}

/// Implements `cabin_player_free(player)`: stops at once, waits for the audio thread and releases the player.
/// See include/cabin.h.
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
