import CabinSession
import CabinTestSupport
import Foundation
import Testing

/// Issue 29.5: the drive's choices (vehicles, routes, radios, rest stops) are defined once in
/// the library (`DriveChoices`), and every command's help that takes the preset options
/// lists exactly them.
@Suite struct PresetChoicesHelpTests {
    /// The help paragraph of the option whose line starts with `option`, its wrapped lines
    /// joined and runs of spaces as one.
    static func help(of option: String, in text: String) -> String? {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        // A long label has its help on the lines below it.
        guard let start = lines.firstIndex(where: {
            let trimmed = $0.trimmingCharacters(in: .whitespaces)
            return trimmed == option || trimmed.hasPrefix(option + " ")
        }) else { return nil }
        var parts = [lines[start]]
        for line in lines[(start + 1)...] {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty || trimmed.hasPrefix("-") { break }
            parts.append(trimmed)
        }
        return parts.joined(separator: " ").split(separator: " ").joined(separator: " ")
    }

    @Test(arguments: [["play"], ["render"], ["session", "print"], ["session", "plot"], ["session", "levels"]])
    func theHelpListsExactlyTheLibrarysDriveChoices(_ command: [String]) throws {
        let result = try ExternalTool.cabin(command + ["--help"])
        #expect(result.status == 0, "\(result.stderr)")
        let vehicle = try #require(Self.help(of: "--vehicle <vehicle>", in: result.stdout), "\(command): no --vehicle")
        #expect(vehicle.hasSuffix(" drive: \(DriveChoices.spoken(DriveChoices.vehicles))."), "\(vehicle)")
        let route = try #require(Self.help(of: "--route <route>", in: result.stdout))
        #expect(route.hasSuffix(" drive: \(DriveChoices.spoken(DriveChoices.routes))."), "\(route)")
        let restEvery = try #require(Self.help(of: "--rest-every <rest-every>", in: result.stdout))
        #expect(restEvery.hasSuffix(" drive: \(DriveChoices.spoken(DriveChoices.restEvery))."), "\(restEvery)")
        let rest = try #require(Self.help(of: "--rest <rest>", in: result.stdout))
        #expect(rest.hasSuffix(" drive: rest stop length, \(DriveChoices.spoken(DriveChoices.rests))."), "\(rest)")
        // The built-in radios, then the other kinds of --radio: nothing before or between.
        let radio = try #require(Self.help(of: "--radio <radio>", in: result.stdout))
        #expect(radio.contains("<radio> drive: \(DriveChoices.radios.joined(separator: ", ")), an internet station's http(s):// URL"), "\(radio)")
    }
}
