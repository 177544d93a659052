import CabinAudio
import CabinConfig
import CabinPlayback
import Glibc
import Testing

/// The config file read from its text, the environment's layer and the merge: pure, no files.
@Suite struct ConfigFileTests {
    static let path = "/home/me/.config/cabin/config.toml"

    @Test func aFileSetsEachSettingWithItsLine() {
        let text = """
            # Cabin
            [play]
            device = "pulse"
            period = 512
            periods = 4
            preset = "pomodoro"
            rumble = "/dev/input/event5"

            [volume]
            master = "80%"
            radio = "-6dB"
            engine = 50
            remember = false

            [haptics]
            strength = "light"

            [presets.pomodoro]
            focus = "50m"
            cycles = 3

            [stations]
            kexp = "https://kexp.example/kexp160.mp3"
            """
        let file = ConfigFile.parse(text, path: Self.path)
        #expect(file.problems.isEmpty, "\(file.problems)")
        let s = CabinSettings.merge([file.layer])
        #expect(s.device == Setting("pulse", .file(path: Self.path, line: 3)))
        #expect(s.period == Setting(512, .file(path: Self.path, line: 4)))
        #expect(s.periods.value == 4)
        #expect(s.preset.value == "pomodoro")
        #expect(s.rumble.value == "/dev/input/event5")
        #expect(s.hapticStrength == Setting(.light, .file(path: Self.path, line: 16)))
        #expect(s.rememberVolumes.value == false)
        // Percent on mpv's cubic curve, dB as written; a bare number is a percentage.
        #expect(abs(s.volumes["master"]!.value.value - 60 * log10(0.8)) < 1e-9)
        #expect(s.volumes["radio"]!.value == Decibels(-6))
        #expect(abs(s.volumes["engine"]!.value.value - 60 * log10(0.5)) < 1e-9)
        #expect(s.volumes["radio"]!.origin == .file(path: Self.path, line: 11))
        #expect(s.presetOptions["pomodoro"]?["focus"] == Setting("50m", .file(path: Self.path, line: 19)))
        #expect(s.presetOptions["pomodoro"]?["cycles"]?.value == "3")
        #expect(s.stations["kexp"]?.value == "https://kexp.example/kexp160.mp3")
        #expect(s.stations["kexp"]?.origin == .file(path: Self.path, line: 23))
    }

    @Test func noFileMeansTheDefaults() {
        let s = CabinSettings.merge([ConfigFile.parse("", path: Self.path).layer])
        #expect(s.device == Setting("default", .builtIn))
        #expect(s.period == Setting(256, .builtIn))
        #expect(s.periods == Setting(3, .builtIn))
        #expect(s.preset == Setting("drive", .builtIn))
        #expect(s.rumble.value == nil)
        #expect(s.hapticStrength.value == .strong)
        #expect(s.volumes.isEmpty)
        #expect(s.rememberVolumes.value)
    }

    @Test func everyBadValueIsOneLineWithItsPlaceAndKey() {
        let text = """
            [play]
            period = 100
            periods = 9
            device = 5
            preset = "jog"

            [volume]
            master = "200%"
              radio = "+10dB"
            remember = "maybe"

            [haptics]
            strength = "max"

            [presets.pomodoro]
            focus = "500m"
            [presets.drive]
            minutes = 3

            [stations]
            lofi = "http://x.example/a"
            mine = "ftp://x.example/a"
            """
        let file = ConfigFile.parse(text, path: "c.toml")
        let lines = file.problems.map(\.description)
        #expect(lines == [
            "c.toml:2:1: error: play.period: must be a power of two from 16 to 8192 frames, not 100",
            "c.toml:3:1: error: play.periods: must be a whole number from 2 to 8, not 9",
            "c.toml:4:1: error: play.device: must be an ALSA device name (default, pulse, hw:0,0 …) or none, not 5",
            "c.toml:5:1: error: play.preset: must be a preset: drive, pomodoro, ambient, breathing, quest, ui; not 'jog'",
            "c.toml:8:1: error: volume.master: \(VolumeLevel.rule), not '200%'",
            "c.toml:9:3: error: volume.radio: \(VolumeLevel.rule), not '+10dB'",
            "c.toml:10:1: error: volume.remember: must be true or false, not 'maybe'",
            "c.toml:13:1: error: haptics.strength: must be off, light, medium or strong, not 'max'",
            "c.toml:16:1: error: presets.pomodoro.focus: must be a whole number of minutes from 5 to 90, not '500m'",
            "c.toml:18:1: error: presets.drive.minutes: must be a whole number of minutes from 25 to 240, not '3'",
            "c.toml:21:1: error: stations.lofi: 'lofi' is a built-in radio of the drive preset; name the station otherwise",
            "c.toml:22:1: error: stations.mine: must be an http:// or https:// station URL, not 'ftp://x.example/a'",
        ], "\(lines.joined(separator: "\n"))")
        #expect(file.hasErrors)
    }

    @Test func anUnknownKeyIsAWarningAndTheRestApplies() {
        let text = """
            [play]
            perod = 512
            device = "pulse"
            [presets.pomodoro]
            focs = "50m"
            [presets.jog]
            minutes = 5
            [colour]
            theme = "dark"
            """
        let file = ConfigFile.parse(text, path: "c.toml")
        #expect(!file.hasErrors)
        #expect(file.problems.map(\.description) == [
            "c.toml:2:1: warning: play.perod: unknown key (did you mean 'period'?); ignored",
            "c.toml:5:1: warning: presets.pomodoro.focs: the pomodoro preset has no option 'focs' (did you mean 'focus'?); ignored",
            "c.toml:7:1: warning: presets.jog.minutes: no preset 'jog' (known: drive, pomodoro, ambient, breathing, quest, ui); ignored",
            "c.toml:9:1: warning: colour.theme: unknown key (known: haptics, play, presets, stations, volume); ignored",
        ])
        #expect(CabinSettings.merge([file.layer]).device.value == "pulse")
    }

    @Test func aSyntaxErrorIsOneLineAtItsPlace() {
        let file = ConfigFile.parse("[play]\nperiod = 512\ndevice = \"pulse\n", path: "c.toml")
        #expect(file.problems.count == 1)
        let problem = file.problems[0]
        #expect(problem.severity == .error && problem.line == 3 && problem.column != nil, "\(problem)")
        #expect(problem.description.hasPrefix("c.toml:3:"))
        #expect(problem.description.contains("error: not TOML: "))
        #expect(file.layer.device == nil)
    }

    @Test func laterLayersWinAndSayWhereTheyCameFrom() {
        let file = ConfigFile.parse("[play]\ndevice = \"pulse\"\nperiod = 512\nperiods = 4\n[volume]\nmaster = \"-6dB\"\n", path: "c.toml")
        let (environment, problems) = ConfigEnvironment.layer(["CABIN_DEVICE": "hw:0,0", "CABIN_PERIOD": "1024", "CABIN_VOLUME": "",
                                                               "HOME": "/home/me"])
        #expect(problems.isEmpty)
        var options = ConfigLayer()
        #expect(options.set(["play", "device"], .string("none"), origin: .option("-D")) == nil)
        let s = CabinSettings.merge([file.layer, environment, options])
        #expect(s.device == Setting("none", .option("-D")))
        #expect(s.period == Setting(1024, .environment("CABIN_PERIOD")))
        #expect(s.periods == Setting(4, .file(path: "c.toml", line: 4)))
        // An empty variable is unset.
        #expect(s.volumes["master"] == Setting(Decibels(-6), .file(path: "c.toml", line: 6)))
        #expect(s.preset == Setting("drive", .builtIn))
        #expect(s.period.origin.description == "environment CABIN_PERIOD")
        #expect(s.periods.origin.description == "c.toml:4")
    }

    @Test func aBadEnvironmentVariableIsOneLine() {
        let (_, problems) = ConfigEnvironment.layer(["CABIN_PERIODS": "twelve", "CABIN_HAPTIC_STRENGTH": "medium"])
        #expect(problems.map(\.description) == ["environment CABIN_PERIODS: error: play.periods: must be a whole number from 2 to 8, not 'twelve'"])
    }

    @Test func rememberedVolumesApplyUnlessAVolumeIsGivenOrRememberingIsOff() {
        let remembered: [String: Decibels] = ["master": -12, "radio": -3]
        var file = ConfigLayer()
        _ = file.set(["volume", "master"], .string("-6dB"), origin: .file(path: "c.toml", line: 2))
        let settings = CabinSettings.merge([file])
        let start = settings.startingVolumes(remembered: remembered, statePath: "s.json")
        #expect(start["master"] == Setting(Decibels(-12), .state(path: "s.json")))
        #expect(start["radio"]?.value == Decibels(-3))
        // Nothing remembered yet: the file's.
        #expect(settings.startingVolumes(remembered: nil, statePath: "s.json")["master"]?.origin == .file(path: "c.toml", line: 2))
        // --volume: the file's and the options', not the remembered.
        var options = ConfigLayer()
        _ = options.set(["volume", "radio"], .string("50"), origin: .option("--volume"))
        let given = CabinSettings.merge([file, options]).startingVolumes(remembered: remembered, statePath: "s.json")
        #expect(given["master"]?.value == Decibels(-6))
        #expect(given["radio"]?.origin == .option("--volume"))
        // remember = false.
        _ = file.set(["volume", "remember"], .boolean(false), origin: .file(path: "c.toml", line: 3))
        #expect(CabinSettings.merge([file]).startingVolumes(remembered: remembered, statePath: "s.json")["master"]?.value == Decibels(-6))
    }

    @Test func presetOptionsAreUnderTheCommandLinesAndStationsResolve() {
        let file = ConfigFile.parse("""
            [presets.drive]
            destination = "Yosemite"
            radio = "kexp"
            vehicle = "v8"
            [stations]
            kexp = "https://kexp.example/live.mp3"
            """, path: "c.toml")
        #expect(file.problems.isEmpty, "\(file.problems)")
        let s = CabinSettings.merge([file.layer])
        #expect(s.presetOptions(for: "drive", given: ["vehicle": "four"])
                == ["destination": "Yosemite", "radio": "https://kexp.example/live.mp3", "vehicle": "four"])
        #expect(s.presetOptions(for: "drive", given: ["radio": "kexp"])["radio"] == "https://kexp.example/live.mp3")
        #expect(s.presetOptions(for: "pomodoro", given: ["focus": "50m"]) == ["focus": "50m"])
    }

    @Test func theLocatorFindsKeysInHeadersDottedAndQuoted() {
        let locator = KeyLocator("""
            top = 1
            [play]
              device = "x" # a comment with = in it
            "quoted key" = 2
            [presets . drive]
            minutes = 50
            volume.master = 3
            """)
        #expect(locator.position(of: ["top"])! == (1, 1))
        #expect(locator.position(of: ["play", "device"])! == (3, 3))
        #expect(locator.position(of: ["play", "quoted key"])! == (4, 1))
        #expect(locator.position(of: ["presets", "drive"])! == (5, 1))
        #expect(locator.position(of: ["presets", "drive", "minutes"])! == (6, 1))
        #expect(locator.position(of: ["presets", "drive", "volume", "master"])! == (7, 1))
        #expect(locator.position(of: ["play", "period"]) == nil)
    }
}
