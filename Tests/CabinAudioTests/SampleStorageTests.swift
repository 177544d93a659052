import CabinAudio
import Testing

/// Sounds held once in a `SampleStorage`: 16-bit storage is exact for 16-bit sources, and a
/// storage plays as far as it is filled while the mixer runs.
@Suite struct SampleStorageTests {
    @Test func sixteenBitStorageHoldsSixteenBitValuesExactly() {
        let values: [Float] = [-32768, -32767, -1, 0, 1, 12345, 32767].map { $0 / 32768 }
        let storage = SampleStorage(AudioBuffer(samples: values, channelCount: 1, sampleRate: 48_000), format: .int16)
        #expect(storage.floatSamples() == values)
        #expect(storage.byteCount == values.count * 2)
    }

    @Test func sixteenBitStorageRoundsAndClips() {
        let storage = SampleStorage(AudioBuffer(samples: [1.5, -2, 0.4 / 32768, 0.6 / 32768], channelCount: 2, sampleRate: 8),
                                    format: .int16)
        #expect(storage.floatSamples() == [32767 / 32768, -1, 0, 1 / 32768])
    }

    @Test func aStorageFillsWhilePlayingAndUnreadyFramesAreSilent() {
        var config = Render.config(sampleRate: 8)
        let storage = SampleStorage(frameCount: 8, channelCount: 1, sampleRate: 8, format: .int16)
        let id = config.addAsset(storage)
        let (mixer, handle) = config.make()
        #expect(handle.send(MixerCommand(at: 0, .playOneShot(.asset(id), bus: BusID(index: 0), gain: 0))))

        let first: [Float] = [0.5, -0.25, 0.125]
        first.withUnsafeBufferPointer { storage.append($0) }
        #expect(storage.readyFrames == 3 && !storage.isComplete)
        let early = Render.left(Render.run(mixer, frameCount: 5, blockSize: 5))
        #expect(early == [0.5, -0.25, 0.125, 0, 0])

        let rest: [Float] = [0.75, 0.75, 0.75, 0.25, -0.5]
        rest.withUnsafeBufferPointer { storage.append($0) }
        #expect(storage.isComplete)
        let late = Render.left(Render.run(mixer, frameCount: 4, blockSize: 2))
        #expect(late == [0.75, 0.25, -0.5, 0])
    }

    @Test func finishSilencesWhatWasNeverWrittenAndFailSilencesEverything() {
        let short = SampleStorage(frameCount: 4, channelCount: 1, sampleRate: 8, format: .float32)
        [Float(0.5)].withUnsafeBufferPointer { short.append($0) }
        short.finish()
        #expect(short.isComplete)
        #expect(short.floatSamples() == [0.5, 0, 0, 0])

        let broken = SampleStorage(AudioBuffer(samples: [1, 1], channelCount: 1, sampleRate: 8))
        broken.fail("truncated")
        #expect(broken.readyFrames == 0)
        #expect(broken.failure == "truncated")
    }

    @Test func oneStorageRegisteredTwiceIsNotCopied() {
        var config = Render.config(sampleRate: 8)
        let storage = SampleStorage(AudioBuffer(samples: [1, 1, 1, 1], channelCount: 1, sampleRate: 8))
        let loud = config.addAsset(storage)
        let quiet = config.addAsset(storage, trim: Decibels(-6.0206))
        #expect(config.assets[Int(loud.index)].samples === config.assets[Int(quiet.index)].samples)
        let out = Render.scene(config, commands: [
            MixerCommand(at: 0, .playOneShot(.asset(loud), bus: BusID(index: 0), gain: 0)),
            MixerCommand(at: 0, .playOneShot(.asset(quiet), bus: BusID(index: 0), gain: 0)),
        ], frameCount: 2, blockSize: 2)
        #expect(abs(Render.left(out)[0] - 1.5) < 1e-4)
    }
}
