import ArgumentParser
import CabinIO
import CabinPlayback
import CabinRadio

/// The `cabin` command: a thin layer over the Cabin libraries. Each subcommand parses its
/// options, calls one library function and prints.
@main
struct Cabin: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cabin",
        abstract: "Sound and touch for focus sessions: a low-latency mixer on PipeWire and ALSA, haptic patterns, session timelines.",
        discussion: """
            Examples:
              cabin play                             the default session: a 25-minute drive
              cabin play --preset pomodoro           presets: drive, pomodoro, ambient, breathing …
              cabin render drive.json -o drive.wav   a session to a file, fast
              cabin session validate drive.json      every problem in a document
              cabin haptics show Boing.ahap          a haptic pattern in the terminal
              cabin studio Boing.ahap                a pattern in the browser, redrawn on save
              cabin info rain.flac engine.wav        format, length and loudness
              cabin ctl pause                        control a playing session from outside
              cabin config                           settings and where they come from
              cabin devices                          where Cabin can play (-D)
            """,
        version: CabinVersion.string,
        subcommands: [Play.self, Ctl.self, ConfigCommand.self, Render.self, SessionCommand.self, HapticsCommand.self, StudioCommand.self, SoundsCommand.self, Info.self, Devices.self, Bench.self]
    )

    /// The process allocates from one malloc arena (`MallocArenas`), registers the radio
    /// (every session it loads plays its streams, playlists and generated music), then
    /// parses and runs.
    static func main() {
        MallocArenas.useOne()
        RadioStations.register()
        main(nil)
    }
}
