// CabinPlayback — playing sessions: the application layer on top of the pure cores
// (CabinSession's documents and runner, CabinAudio's mixer) and the edge (CabinIO).
//
//   loading          SessionLoader (read → load sounds and patterns → compile), SessionSoundLoader,
//                    SoundDecoding (progressive), SessionHapticLoader, SoundLibrary
//   live playback    LivePlayer (control side: transport, events, status), LivePlayer.play
//                    (the front door), LivePlayer.open
//                    (open the device, then load at its rate), PlaybackTransport (the state
//                    machine), RenderLoop (the push driver), SessionRumble
//   outputs          AudioOutput / AudioOutputBackend (the seam), ALSABackend (PCMOutput),
//                    SilentClockBackend (no sound, the system clock: `-D none`),
//                    FakeAudioBackend (a virtual clock, for tests and embedders' tests)
//   control          LivePlayer+Control (volumes, mute, live events, stations), SleepTimer,
//                    MarkHooks (the control socket and MPRIS are CabinRemote's, over this API)
//   offline          OfflineRenderer (to WAV/FLAC/Opus, bit-identical at any block size)
//   haptics          RumblePlayer, SessionRumble (evdev, on the audio clock)
//   library          SoundLibraryGenerator (the built-in sounds from their recipes)
//
// Embedding a session player, the front door (LivePlayer+Play: resolve, open, load
// progressively, start; one error type, LivePlayer.PlayError):
//
//     let player = try LivePlayer.play(.preset("drive", options: ["minutes": "50"]), device: .default)
//     for await event in player.events { print(event) }      // ends after the session's end
//
// and the same with more control (the libraries, compile options, when to start):
//
//     import CabinPlayback
//
//     let (player, _) = try LivePlayer.open(options: .init(device: "default")) { rate, period in
//         try SessionLoader.load(path: "Patterns/sessions/example.json", sampleRate: rate,
//                                maxBlockFrames: period, library: try SoundLibrary.standard(),
//                                patterns: HapticPatternLibrary.locate(), progressive: true)
//     }
//     try player.start()
//     while !player.isFinished {
//         for event in player.poll() { print(event) }        // started, mark, xrun, ended …
//         usleep(100_000)
//     }
//     player.setParameter("speed", to: 40)                    // any time: the engine follows
//
// Testing an embedding without a sound device: `import CabinTesting` (the test doubles'
// library product) and set `options.backend = FakeAudioBackend(rate:)`;
// playback then runs on a virtual clock, as fast as it renders, and `backend.heard()` is
// what a listener would have heard (see TransportTests).
//
// Threads: LivePlayer's methods may be called from any thread or task (serialised by its
// control lock, which the render thread never takes); its render thread is internal. An app
// that owns its audio callback plays through `CallbackOutput` (callback mode). Loaders do file I/O on the calling thread (and Dispatch workers for
// progressive decoding).
