/// The user's settings: the config file, the environment and the state file.
///
/// Four layers make the settings `cabin play` and friends use, each overriding the one
/// before: the built-in defaults, the config file (`$XDG_CONFIG_HOME/cabin/config.toml`,
/// TOML, read with TOMLKit), the environment (`CABIN_DEVICE`, `CABIN_VOLUME` …) and the
/// command line's options. Every value keeps where it came from (``ConfigOrigin``), which
/// `cabin config` prints. The state file (`$XDG_STATE_HOME/cabin/state.json`, ``PlayState``)
/// remembers the last session and its position (`cabin play --resume`) and the volumes it
/// ended at.
///
/// Everything here is pure: it takes the file's text and the environment's variables and
/// returns values and problems (one line each, with the file, line:column and key); reading
/// and writing the files is the CLI's (through CabinIO's `OutputFile`).
///
/// ```swift
/// let file = ConfigFile.parse(text, path: "/home/me/.config/cabin/config.toml")
/// let environment = ConfigEnvironment.layer(ProcessInfo.processInfo.environment)
/// let settings = CabinSettings.merge([file.layer, environment.layer, optionsLayer])
/// settings.period.value   // 512
/// settings.period.origin  // .file(path: "/home/me/.config/cabin/config.toml", line: 3)
/// ```
///
/// Thread: pure; any thread except the render thread.
public enum CabinConfig {}
