import CabinAudio
import CabinIO
import CabinOutput
import CabinSession

extension RenderLoop {
    /// The device failed: report it, then reopen it with backoff (see `DeviceReconnection`).
    /// On success the session skips the outage (it kept time while the device was away) and
    /// playback resumes. False: give up.
    ///
    /// This path allocates (error text, a new PCM): no audio flows while it runs.
    mutating func reconnect(after error: AudioDeviceError) -> Bool {
        output.close()
        let negotiated = output.negotiated
        let reconnection = DeviceReconnection(player: player, after: error)
        guard let (opened, outage) = reconnection.reopen(like: negotiated),
              case .push(let fresh) = opened else { return false }
        output = fresh
        transport.skip(outage)
        reconnection.restored(paused: transport.isPaused)
        return true
    }
}

/// Reopening a lost device, for either driver: the failure is reported, then the device is
/// opened again with backoff (0.25 s doubling to 2 s) until `reconnectTimeout`, on the
/// backend's clock; a quit or stop meanwhile ends it.
///
/// Allocates (error text, a new device): no audio flows while it runs.
struct DeviceReconnection {
    unowned(unsafe) let player: LivePlayer

    init(player: LivePlayer, after error: AudioDeviceError) {
        self.player = player
        let shared = player.shared
        shared.lastDeviceError.withLock { $0 = error.happened }
        shared.deviceErrors.add(1, ordering: .releasing)
        shared.state.store(PlayerShared.State.reconnecting.rawValue, ordering: .releasing)
    }

    /// The device again, at the same rate, and the frames of the outage; nil: gave up.
    func reopen(like negotiated: OutputFormat) -> (OpenedOutput, outage: Int)? {
        let shared = player.shared, backend = player.backend
        let outageStart = backend.now()
        var delay = 0.25
        while backend.now() - outageStart < player.options.reconnectTimeout {
            if backend.sleep(seconds: delay, wakeupDescriptor: player.wakeup.descriptor) {
                player.wakeup.drain()
                if shared.stopRequested.load(ordering: .acquiring) { return nil }
                if PlayerShared.Transport(rawValue: shared.transport.load(ordering: .acquiring)) == .quit { return nil }
            }
            delay = min(2, delay * 2)
            guard let opened = try? backend.open(device: player.deviceName, configuration: OutputConfiguration(reopening: negotiated))
            else { continue }
            guard opened.negotiated.sampleRate == negotiated.sampleRate else { opened.close(); continue }
            return (opened, Int(((backend.now() - outageStart) * Double(negotiated.sampleRate)).rounded()))
        }
        return nil
    }

    /// Counts the restore and says what plays now.
    func restored(paused: Bool) {
        player.shared.restores.add(1, ordering: .releasing)
        player.shared.state.store((paused ? PlayerShared.State.paused : .playing).rawValue, ordering: .releasing)
    }
}
