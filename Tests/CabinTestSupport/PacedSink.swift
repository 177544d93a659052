import Foundation
import Glibc

/// Cabin's own paced test sink (Tests/CabinTestSink/cabin_test_sink.c): an ALSA plugin that
/// plays in real time into nothing, captures to a WAV and reports underruns like a card.
/// The first use in a test process runs `scripts/test-sink` (which builds it with the C
/// compiler) and points this process's ALSA configuration (and so every `cabin` child's) at
/// it: `default` is the sink.
///
/// Nothing outside the package is needed: no ../shared, no sound card, no sound server.
/// (The PulseAudio tests, `SoundServerTests`, use a real sound server instead.)
public enum PacedSink {
    /// Why the sink is not available, or nil when it is ready (built and configured).
    public static let problem: String? = setUp()

    /// Whether the sink is ready.
    public static var isReady: Bool { problem == nil }

    /// The environment variable naming the capture file of the next device opened.
    public static let captureVariable = "CABIN_SINK_FILE"

    private static func setUp() -> String? {
        if ProcessInfo.processInfo.environment["CABIN_TEST_SINK"] == "off" { return "CABIN_TEST_SINK=off" }
        // CI's PulseAudio phase: `default` is the real sound server there, and stays so.
        if TestEnvironment.audioSinkBackend == "pulse" { return "a PulseAudio server is the sink in this run" }
        // scripts/test-sink builds the plugin (once per source version) and writes the ALSA
        // configuration; it prints the value for ALSA_CONFIG_PATH.
        let script = TestEnvironment.packageRoot.appendingPathComponent("scripts/test-sink").path
        guard let result = try? ExternalTool.launch(script, [], environment: ProcessInfo.processInfo.environment) else {
            return "cannot run \(script)"
        }
        let path = result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        guard result.status == 0, !path.isEmpty else {
            return result.stderr.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        setenv("ALSA_CONFIG_PATH", path, 1)
        // `default` is PipeWire's default sink when a PipeWire daemon answers: on a machine
        // running one, the tests' `default` must still be this sink, so this process and its
        // children look for PipeWire where none runs (PipeWireDaemon's tests name their own).
        setenv("PIPEWIRE_RUNTIME_DIR", "/nonexistent/cabin-tests-use-the-paced-sink", 1)
        return nil
    }
}
