import CabinIO
import CabinTestSupport
import Foundation
import Testing

/// The config file in the commands that play in real time: `haptics play` at the configured
/// strength (heard on the paced sink), and a document's station by name played live.
@Suite(.serialized) struct ConfigPlayTests {
    @Test(.enabled(if: TestEnvironment.pacedSinkReady, Comment(rawValue: TestEnvironment.pacedSinkProblem)))
    func hapticsPlayIsHeardAtTheConfiguredStrength() throws {
        let dir = try TestEnvironment.temporaryDirectory("cabin-strength-play")
        let (path, environment) = try ConfigCommandTests.config("[haptics]\nstrength = \"light\"\n")
        // What each strength renders to: the references.
        let light = try ConfigAgreementTests.hapticsRender(dir, "light.wav", ["--strength", "light"]).samples
        let strong = try ConfigAgreementTests.hapticsRender(dir, "strong.wav", ["--strength", "strong"]).samples
        func heard(_ name: String, _ environment: [String: String]) throws -> (peak: Float, stdout: String) {
            let capture = dir.appendingPathComponent(name).path
            let result = try ExternalTool.cabin(["haptics", "play", ConfigAgreementTests.pattern, "--audio"],
                                                environment: environment.merging([PacedSink.captureVariable: capture]) { $1 })
            #expect(result.status == 0, "\(result.stderr)")
            return (ConfigAgreementTests.peak(try SoundFile.read(capture).samples), result.stdout)
        }
        let configured = try heard("configured.wav", environment)
        let plain = try heard("plain.wav", [:])
        func decibels(_ a: Float, _ b: Float) -> Double { 20 * log10(Double(a) / Double(b)) }
        #expect(abs(decibels(configured.peak, ConfigAgreementTests.peak(light))) < 0.5, "heard \(configured.peak), light renders \(ConfigAgreementTests.peak(light))")
        #expect(abs(decibels(plain.peak, ConfigAgreementTests.peak(strong))) < 0.5, "heard \(plain.peak), strong renders \(ConfigAgreementTests.peak(strong))")
        #expect(configured.stdout.hasSuffix(" as audio on default, strength light (\(path):2)\n"), "\(configured.stdout)")
        #expect(!plain.stdout.contains(", strength "))
    }

    /// The name resolves to the URL the station connects to (a port where nothing listens:
    /// the one line a station that cannot be played gets, naming its URL), and the session
    /// plays on to its end.
    @Test func aDocumentsStationByNameConnectsToItsURL() throws {
        let dir = try TestEnvironment.temporaryDirectory("cabin-station-play")
        let (_, environment) = try ConfigCommandTests.config(ConfigAgreementTests.stations)
        let (named, _) = try ConfigAgreementTests.radioDocument(dir, "named.json", sound: "station:kexp")
        let result = try ExternalTool.cabin(["play", named, "-D", "none", "--json"], environment: environment)
        #expect(result.status == 0, "\(result.stderr)")
        let events = result.stdout.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        let radio = events.filter { ($0["event"] as? String)?.hasPrefix("radio-") == true }
        #expect(radio.contains { $0["event"] as? String == "radio-error" && $0["url"] as? String == "http://127.0.0.1:9/kexp.mp3" }, "\(radio)")
        #expect(events.last?["reason"] as? String == "finished")
    }
}
