import CabinConfig
import CabinSession
import Testing

/// Issue 29.5: the config checker's built-in radios are the drive preset's (`DriveChoices`,
/// defined once): a station may be named none of them.
@Suite struct StationNameTests {
    @Test func noStationMayBeNamedAsABuiltInRadio() {
        for radio in DriveChoices.radios {
            let file = ConfigFile.parse("[stations]\n\(radio) = \"https://radio.example/live.opus\"\n", path: "c.toml")
            #expect(file.problems.map(\.description)
                    == ["c.toml:2:1: error: stations.\(radio): '\(radio)' is a built-in radio of the drive preset; name the station otherwise"])
        }
        let file = ConfigFile.parse("[stations]\nkexp = \"https://radio.example/live.opus\"\n", path: "c.toml")
        #expect(file.problems.isEmpty && file.layer.stations["kexp"]?.value == "https://radio.example/live.opus")
    }
}
