import CabinSession
import Testing

/// Issue 29.5: `DriveChoices` is what the drive preset accepts: every listed choice makes a
/// drive, and a choice not listed is refused by a line that lists exactly them.
@Suite struct DriveChoicesTests {
    @Test func everyListedChoiceMakesADriveAndTheRefusalListsThem() throws {
        let lists: [(option: String, choices: [String])] = [
            ("vehicle", DriveChoices.vehicles), ("route", DriveChoices.routes), ("radio", DriveChoices.radios),
            ("rest-every", DriveChoices.restEvery), ("rest", DriveChoices.rests),
        ]
        for (option, choices) in lists {
            for choice in choices {
                #expect(throws: Never.self, "--\(option) \(choice)") { try SessionPresets.make("drive", options: [option: choice]) }
            }
            #expect(throws: PresetError("\(option: option) must be \(DriveChoices.spoken(choices)), not 'nope'")) {
                try SessionPresets.make("drive", options: [option: "nope"])
            }
        }
        #expect(DriveChoices.spoken(["a", "b", "c"]) == "a, b or c")
    }
}
