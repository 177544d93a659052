// CabinIO — the edge: the one module that calls C libraries and the OS, and nothing else.
// Each file wraps one thing and names the C function behind every call:
//
//   ALSA PCM playback        PCMOutput (+Configure, +Polling), ALSADevices, AudioDeviceError
//   sound files              SoundFile, OpenSoundFile, SoundFileWriter (libsndfile), SoundFileInfo
//   resampling               Resampler, StreamingResampler (soxr)
//   loudness                 LoudnessMeter (libebur128: LUFS, true peak, LRA)
//   speech                   SpeechSynthesizer (espeak-ng, opened with dlopen)
//   rumble                   EvdevDevice, ForceFeedbackDevice, RumbleDevices (evdev force feedback)
//   threads, fds, signals    RealtimeThread (SCHED_FIFO), EventFD, WakeSignal (mutex and
//                            condition), Signals, TerminalInput
//   clocks and sleeps        MonotonicClock, ThreadCPUClock (clock_gettime), ThreadSleep
//   sockets, processes       LocalSocketListener, LocalSocketConnection, DescriptorPoll (Unix
//                            sockets, poll), DescriptorLimit (RLIMIT_NOFILE, /proc/self/fd),
//                            ChildProcess (posix_spawn of the user's commands and of
//                            benchmarked programs), ThisProcess (pid, environment, peak RSS)
//   the file system          FileStatus (stat, lstat, realpath, access), directoryEntries
//   output that never blocks StreamWriter (stdout through a bounded buffer, written on a queue)
//   files that ship          ResourceLocator, StandardStreams, SystemError
//   the user's home          HomeDirectory ($HOME, else getpwuid_r; a missing one is never made)
//   files written            OutputFile (temporary + fsync + rename; devices, FIFOs, stdout
//                            streamed to), OutputError, OutputTemporaries
//
// What plays sessions — loaders, the live player, the offline renderer — is CabinPlayback,
// built on this module and the pure cores.
//
//     import CabinIO
//
//     let samples = (0..<96_000).flatMap { i -> [Float] in      // 2 s of 440 Hz, stereo
//         let x = Float(0.25 * sin(2 * Double.pi * 440 * Double(i) / 48_000))
//         return [x, x]
//     }
//     let tone = AudioBuffer(samples: samples, channelCount: 2, sampleRate: 48_000)
//     let out = try PCMOutput(device: "default")             // blocking, FLOAT_LE if the device takes it
//     try tone.samples.withUnsafeBufferPointer { try out.write($0) }
//     try out.drain()
//     print(try LoudnessMeter.measure(tone))                  // integrated LUFS, true peak
//
// Threads: each wrapper says which thread may call it. Errors are typed (AudioDeviceError,
// SoundFileError, SystemError, ForceFeedbackError, OutputError), one readable line each, with the
// operation and the errno or library message.
