import CabinOutput
import CabinPlayback
import CabinTesting
import Testing

/// The `-D` value's scheme picks the backend, and the plain `default` goes to the first entry
/// that claims it now, else to the bare scheme: a backend that serves `default` when its
/// server answers (PipeWire's) says so in its own entry, so adding one is one entry.
@Suite struct OutputRegistryTests {
    static func registry(claims: [String: Bool]) -> OutputRegistry {
        func entry(_ scheme: String) -> OutputRegistry.Entry {
            var claim: (@Sendable () -> Bool)?
            if let answer = claims[scheme] { claim = { answer } }
            return OutputRegistry.Entry(scheme: scheme, summary: scheme, defaultDevice: "\(scheme)-default",
                                        claimsDefault: claim, make: { FakeAudioBackend(rate: 8000) })
        }
        return OutputRegistry(entries: [entry("alsa"), entry("server"), entry("other")], bareScheme: "alsa")
    }

    @Test func theFirstEntryClaimingDefaultPlaysIt() {
        let chosen = Self.registry(claims: ["server": true, "other": true]).resolveChoosingDefault("default")
        #expect(chosen.entry.scheme == "server" && chosen.device == "server-default" && chosen.spec == "server")
    }

    @Test func withNoClaimDefaultIsTheBareSchemes() {
        for claims in [[:], ["server": false, "other": false]] {
            let chosen = Self.registry(claims: claims).resolveChoosingDefault("default")
            #expect(chosen.entry.scheme == "alsa" && chosen.device == "default" && chosen.spec == "default")
        }
    }

    @Test func aNamedDeviceIsNeverClaimed() {
        let registry = Self.registry(claims: ["server": true])
        #expect(registry.resolveChoosingDefault("alsa:default").entry.scheme == "alsa")
        #expect(registry.resolveChoosingDefault("hw:0,0").device == "hw:0,0")
        let other = registry.resolveChoosingDefault("other:x")
        #expect(other.entry.scheme == "other" && other.device == "x" && other.spec == "other:x")
    }

    /// The standard registry: only PipeWire's entry claims `default` (when its daemon answers).
    @Test func inTheStandardRegistryOnlyPipeWireClaimsDefault() {
        let claiming = OutputRegistry.standard.entries.filter { $0.claimsDefault != nil }.map(\.scheme)
        #expect(claiming == [PipeWireBackend.scheme])
    }
}
