/// The environment's layer: `CABIN_DEVICE`, `CABIN_LATENCY`, `CABIN_PERIOD`, `CABIN_PERIODS`, `CABIN_PRESET`,
/// `CABIN_RUMBLE`, `CABIN_VOLUME` (the master's) and `CABIN_HAPTIC_STRENGTH`. An empty
/// variable counts as unset.
///
/// Thread: pure; any thread except the render thread.
public enum ConfigEnvironment {
    /// Each variable and the setting it sets.
    public static let variables: [(name: String, key: [String])] = [
        ("CABIN_DEVICE", ["play", "device"]), ("CABIN_LATENCY", ["play", "latency"]), ("CABIN_PERIOD", ["play", "period"]), ("CABIN_PERIODS", ["play", "periods"]),
        ("CABIN_PRESET", ["play", "preset"]), ("CABIN_RUMBLE", ["play", "rumble"]), ("CABIN_VOLUME", ["volume", "master"]),
        ("CABIN_HAPTIC_STRENGTH", ["haptics", "strength"]),
    ]

    /// The settings `environment` sets, and a problem for each bad value.
    public static func layer(_ environment: [String: String]) -> (layer: ConfigLayer, problems: [ConfigProblem]) {
        var layer = ConfigLayer()
        var problems: [ConfigProblem] = []
        for (name, key) in variables {
            guard let text = environment[name], !text.isEmpty else { continue }
            if let (severity, message) = layer.set(key, .string(text), origin: .environment(name)) {
                problems.append(ConfigProblem(severity, source: "environment \(name)", key: key.joined(separator: "."), message: message))
            }
        }
        return (layer, problems)
    }
}
