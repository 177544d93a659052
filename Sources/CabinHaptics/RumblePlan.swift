/// A compiled pattern turned into timed rumble-effect operations for a dual-motor device
/// (Linux evdev `FF_RUMBLE`), ready for a player to walk: what to upload and play on which
/// effect slot ("voice"), and when to stop it. Pure and exact, so tests check the numbers
/// and the player only sleeps and calls the device.
///
/// - **Continuous track** (voice 0): cut into steps of ``RumblePlanOptions/stepMilliseconds``
///   (50 ms, the tick of the kernel's memless force-feedback driver, so finer steps would
///   not be felt); a step's magnitudes map its mean intensity and intensity-weighted mean
///   sharpness through the ``RumbleMapping``. Equal neighbouring steps merge. Each run of
///   non-zero steps is played as pieces of at most ``RumblePlanOptions/refreshMilliseconds``;
///   each piece is uploaded with a replay length ``RumblePlanOptions/slackMilliseconds``
///   longer than itself, so the next piece (or the stop at the run's end) always comes
///   before the device would end the effect on its own — long effects are refreshed
///   before their replay length runs out, and a late player never leaves a gap.
/// - **Transients** (voices 1…``RumblePlanOptions/transientVoices``): each plays on its
///   own slot for at least ``RumblePlanOptions/minimumTransientMilliseconds`` (30 ms:
///   shorter pulses end before an ERM motor spins up, and are not felt), and ends by itself.
///   A free voice is reused (the lowest one whose last transient has ended); when all are
///   busy, the one that ends soonest is taken over. With no transient voices (a device
///   with one effect slot) transients are merged into the continuous steps instead, as
///   the larger of the two magnitudes per motor.
///
/// Thread: a value type; pure; any thread except the render thread (allocates).
public struct RumblePlan: Sendable, Hashable {
    /// What to do to a voice's effect slot.
    public enum Action: Sendable, Hashable {
        /// Upload an `FF_RUMBLE` effect with these magnitudes and replay length on the
        /// voice's slot (a new slot the first time), then play it once.
        case play(voice: Int, magnitudes: RumbleMagnitudes, lengthMilliseconds: Int)
        /// Stop the voice's effect.
        case stop(voice: Int)
    }

    /// An action at a time, in milliseconds from the pattern's start.
    public struct Step: Sendable, Hashable {
        /// Milliseconds from the pattern's start.
        public var time: Int
        /// What to do then.
        public var action: Action
        /// `action` at `time` milliseconds.
        public init(time: Int, action: Action) {
            self.time = time
            self.action = action
        }
    }

    /// Every step, sorted by time (at equal times: stops first, then document order).
    public var steps: [Step]
    /// How many voices the plan may use: 1 + transient voices.
    public var voiceCount: Int
    /// When the last effect has ended, in milliseconds.
    public var durationMilliseconds: Int
}

/// Options for ``RumblePlan``.
///
/// Thread: a value type; any thread.
public struct RumblePlanOptions: Sendable, Hashable {
    /// How intensity and sharpness become the two motors' magnitudes (default equal-power split).
    public var mapping: RumbleMapping
    /// Length of a continuous-track step (default 50 ms).
    public var stepMilliseconds: Int
    /// Shortest transient pulse (default 30 ms).
    public var minimumTransientMilliseconds: Int
    /// Longest continuous piece before it is uploaded again (default 1000 ms).
    public var refreshMilliseconds: Int
    /// How much longer than its piece a continuous effect's replay length is (default 100 ms).
    public var slackMilliseconds: Int
    /// Effect slots for transients besides the continuous one (default 3; 0 merges them).
    public var transientVoices: Int

    /// Options with the given values, in milliseconds, brought into range: steps and
    /// transients at least 1 ms, a refresh from one step to 30 000 ms, a slack 0…30 000 ms,
    /// transient voices at least 0.
    public init(mapping: RumbleMapping = .equalPowerSplit, stepMilliseconds: Int = 50,
                minimumTransientMilliseconds: Int = 30, refreshMilliseconds: Int = 1000,
                slackMilliseconds: Int = 100, transientVoices: Int = 3) {
        self.mapping = mapping
        self.stepMilliseconds = max(1, stepMilliseconds)
        self.minimumTransientMilliseconds = max(1, minimumTransientMilliseconds)
        self.refreshMilliseconds = min(30_000, max(self.stepMilliseconds, refreshMilliseconds))
        self.slackMilliseconds = min(30_000, max(0, slackMilliseconds))
        self.transientVoices = max(0, transientVoices)
    }
}
