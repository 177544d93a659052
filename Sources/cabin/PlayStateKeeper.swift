import CabinAudio
import CabinConfig
import CabinPlayback
import FoundationEssentials

/// Keeps the state file up to date while `cabin play` plays: the session and its position
/// every ``PlayState/saveInterval`` seconds (so a crash loses little) and when it stops,
/// with the listener's volumes. A state file that cannot be written is one warning, once.
final class PlayStateKeeper {
    private var record: PlayState.Session
    private var lastSave = Date.distantPast
    private var warned = false

    /// Remembered volumes of buses this session lacks, kept for the next that has them.
    private let carried: [String: Decibels]

    init(session: PlayState.Session, carried: [String: Decibels] = [:]) {
        record = session
        self.carried = carried
    }

    /// Saves when the last save is `PlayState.saveInterval` old.
    func tick(_ player: LivePlayer) {
        guard Date().timeIntervalSince(lastSave) >= PlayState.saveInterval else { return }
        save(player, ended: false)
    }

    /// Saves now: `ended` when the session played to its end (its position is then the end).
    func save(_ player: LivePlayer, ended: Bool) {
        lastSave = Date()
        let status = player.status
        record.duration = status.duration
        record.ended = ended
        record.position = ended ? status.duration : min(max(0, status.position), status.duration)
        var volumes = carried.merging(player.volume.buses.filter { $0.value.value != 0 }) { _, new in new }
        volumes["master"] = player.volume.master
        do { try CLIConfig.writeState(PlayState(session: record, volumes: volumes)) } catch {
            if !warned { CLIOutput.warning("the state file (--resume, the remembered volume): \(error)") }
            warned = true
        }
    }
}
