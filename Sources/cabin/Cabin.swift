import ArgumentParser

/// The `cabin` command: a thin layer over the Cabin libraries. Each subcommand parses its
/// options, calls one library function and prints.
@main
struct Cabin: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cabin",
        abstract: "Sound and touch for focus sessions: a low-latency mixer on ALSA, haptic patterns, session timelines.",
        discussion: """
            Examples:
              cabin info rain.flac engine.wav        format, length and loudness of sound files
              cabin info --json *.ogg                the same as JSON, for scripts
              cabin devices                          ALSA playback devices to pass to -D
              cabin session validate drive.json      every problem in a session document
            """,
        version: CabinVersion.string,
        subcommands: [Render.self, SessionCommand.self, SoundsCommand.self, Info.self, Devices.self]
    )
}

enum CabinVersion {
    static let string = "0.1.0"
}
