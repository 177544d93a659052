import CabinIO
import CabinPlayback
import CabinSession
import FoundationEssentials

/// A session loaded at a rate and rendered block by block into the caller's buffer: what
/// `cabin_renderer` points to. One caller at a time (`lock`).
final class CRenderer: @unchecked Sendable {
    let loaded: SessionLoader.Loaded
    let runner: SessionRunner
    let blockFrames: Int
    let lock = CLock()

    init(loaded: SessionLoader.Loaded, blockFrames: Int) {
        self.loaded = loaded
        self.runner = SessionRunner(loaded.compiled)
        self.blockFrames = blockFrames
    }

    /// Renders up to `frames` frames of interleaved stereo into `buffer`; the frames that
    /// belong to the session (fewer at its end).
    func render(into buffer: UnsafeMutablePointer<Float>, frames: Int) -> Int {
        var done = 0
        while done < frames && !runner.isFinished {
            let n = min(blockFrames, frames - done)
            loaded.radio.fill(frames: n)
            let block = UnsafeMutableBufferPointer(start: buffer + 2 * done, count: 2 * n)
            let rendered = runner.render(into: block, frameCount: n)
            done += rendered
            if rendered < n { break }
        }
        return done
    }

    deinit { loaded.radio.stop() }
}

typealias CRendererHandle = CHandle<CRenderer>

/// The sample rate a C caller asked for: 0 is 48 kHz; 8 kHz to 384 kHz.
func cSampleRate(_ rate: Int32) throws(CFailure) -> Double {
    if rate == 0 { return 48_000 }
    guard (8_000...384_000).contains(rate) else { throw CFailure(.argument, "sample_rate must be 8000 to 384000 Hz (0: 48000), not \(rate)") }
    return Double(rate)
}

/// Implements `cabin_renderer_open(session, sample_rate, out)`: loads the session at `sample_rate` (0: 48000)
/// to render block by block. See include/cabin.h.
@_cdecl("cabin_renderer_open")
public func cabin_renderer_open(_ session: OpaquePointer?, _ sampleRate: Int32,
                                _ out: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    cNew(out) { () throws(CFailure) in
        let session = try CSessionHandle.value(session, "session")
        let rate = try cSampleRate(sampleRate)
        let blockFrames = 512
        do {
            return CRenderer(loaded: try session.load(sampleRate: rate, maxBlockFrames: blockFrames, progressive: false),
                             blockFrames: blockFrames)
        } catch {
            throw CFailure(.document, "\(error)")
        }
    }
}

/// Implements `cabin_renderer_frames(renderer, total_frames, position)`: the session's length and the frames
/// rendered so far. See include/cabin.h.
@_cdecl("cabin_renderer_frames")
public func cabin_renderer_frames(_ handle: OpaquePointer?, _ total: UnsafeMutablePointer<Int64>?,
                                  _ position: UnsafeMutablePointer<Int64>?) -> Int32 {
    cCall { () throws(CFailure) in
        let renderer = try CRendererHandle.value(handle, "renderer")
        guard total != nil || position != nil else { throw CFailure(.argument, "total and position are both NULL") }
        total?.pointee = renderer.loaded.compiled.durationFrames
        position?.pointee = renderer.runner.position
    }
}

/// Implements `cabin_renderer_render(renderer, buffer, frames, rendered)`: renders the next `frames` frames
/// of interleaved stereo into `buffer`. See include/cabin.h.
@_cdecl("cabin_renderer_render")
public func cabin_renderer_render(_ handle: OpaquePointer?, _ buffer: UnsafeMutablePointer<Float>?, _ frames: Int,
                                  _ rendered: UnsafeMutablePointer<Int>?) -> Int32 {
    cCall { () throws(CFailure) in
        let renderer = try CRendererHandle.value(handle, "renderer")
        guard let buffer else { throw CFailure(.argument, "buffer is NULL") }
        guard frames >= 0, frames <= Int.max / 8 else { throw CFailure(.argument, "frames must be from 0, not \(frames)") }
        let n = renderer.lock.locked { renderer.render(into: buffer, frames: frames) }
        rendered?.pointee = n
    }
}

/// Implements `cabin_renderer_free(renderer)`: releases a renderer. See include/cabin.h.
@_cdecl("cabin_renderer_free")
public func cabin_renderer_free(_ handle: OpaquePointer?) {
    CRendererHandle.release(handle)
}

/// Implements `cabin_render_file(session, path, sample_rate, from, to)`: renders the session to a sound file,
/// the format from the extension. See include/cabin.h.
@_cdecl("cabin_render_file")
public func cabin_render_file(_ session: OpaquePointer?, _ path: UnsafePointer<CChar>?, _ sampleRate: Int32,
                              _ from: Double, _ to: Double) -> Int32 {
    cCall { () throws(CFailure) in
        let session = try CSessionHandle.value(session, "session")
        let path = try cString(path, "path")
        let rate = try cSampleRate(sampleRate)
        guard from.isFinite, from >= 0 else { throw CFailure(.argument, "from must be a time from 0 s, not \(from)") }
        guard to.isNaN || to < 0 || to > from else {
            throw CFailure(.argument, "to must be after from (\(from) s), or negative for the end, not \(to)")
        }
        let format: SoundFileFormat
        do { format = try SoundFileFormat.forOutput(path, encoding: .pcm16) } catch { throw CFailure(.argument, "\(error)") }
        let output: OutputFile
        do { output = try OutputFile(path) } catch { throw CFailure(.io, "\(error)") }
        let loaded: SessionLoader.Loaded
        do { loaded = try session.load(sampleRate: rate, maxBlockFrames: 512, progressive: false) } catch {
            output.discard()
            throw CFailure(.document, "\(error)")
        }
        defer { loaded.radio.stop() }
        var renderer = OfflineRenderer(blockFrames: 512)
        renderer.radio = loaded.radio
        renderer.from = from > 0 ? from : nil
        renderer.to = to.isNaN || to < 0 ? nil : to
        do { _ = try renderer.write(SessionRunner(loaded.compiled), to: output, format: format) } catch {
            if case OfflineRenderer.RenderError.range = error { throw CFailure(.argument, "\(error)") }
            throw CFailure(.io, "\(error)")
        }
    }
}
