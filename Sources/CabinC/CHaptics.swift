import CabinHaptics
import CabinIO
import CabinJSON

/// A haptic pattern read and compiled: what `cabin_pattern` points to. Immutable.
struct CPattern {
    var compiled: CompiledHaptics
    var warnings: [String]

    /// Reads AHAP or `.haptic` text (told apart by content) called `name` in messages, with
    /// `{"strength": "off|light|medium|strong", "strict": true|false}`.
    init(bytes: [UInt8], name: String, options json: UnsafePointer<CChar>?) throws(CFailure) {
        var strict = false
        var strength = HapticStrength.strong
        for member in try CJSON.object(json, "options_json")?.members ?? [] {
            switch member.key {
            case "strict":
                guard case .bool(let b) = member.value.kind else {
                    throw CFailure(.argument, "options_json: strict must be true or false, not \(member.value.excerpt)")
                }
                strict = b
            case "strength":
                let text = try CJSON.string(member.value, "options_json: strength")
                guard let s = HapticStrength(rawValue: text) else {
                    throw CFailure(.argument, "options_json: strength must be off, light, medium or strong, not \"\(text)\"")
                }
                strength = s
            default:
                throw CFailure(.argument, "options_json: unknown option \"\(member.key)\" (it takes strength, strict)")
            }
        }
        let result = HapticReader.read(bytes, file: name, options: HapticReadOptions(mode: strict ? .strict : .lenient))
        guard let pattern = result.pattern else {
            throw CFailure(.document, result.diagnostics.lines().joined(separator: "\n"))
        }
        compiled = HapticCompiler.compile(pattern, options: HapticCompileOptions(strength: strength))
        warnings = result.diagnostics.warnings.map(\.description)
    }

    /// Renders the first `frames` frames of the pattern as audio (mono, at `rate`, the peak at
    /// most −1 dBFS over the whole pattern) into `buffer`; how many it wrote.
    func render(rate: Double, into buffer: UnsafeMutablePointer<Float>, frames: Int) -> Int {
        let options = HapticAudioOptions(sampleRate: rate)
        let total = HapticAudioRenderer.frameCount(compiled, options: options)
        let n = min(frames, total)
        var stream = HapticAudioRenderer.Stream(compiled, options: options)
        let output = UnsafeMutableBufferPointer(start: buffer, count: n)
        var done = 0
        while done < n {
            let step = stream.process(into: UnsafeMutableBufferPointer(rebasing: output[done...]))
            if step == 0 { break }
            done += step
        }
        let peak = n == total ? Double(output.lazy.map { abs($0) }.max() ?? 0) : HapticAudioRenderer.peak(compiled, options: options)
        let gain = HapticAudioRenderer.gain(peak: peak, options: options)
        if gain != 1 {
            for i in 0..<done { output[i] = Float(Double(output[i]) * gain) }
        }
        return done
    }
}

typealias CPatternHandle = CHandle<CPattern>

/// Implements `cabin_pattern_load(text, name, options_json, out)`: reads and compiles a haptic pattern (AHAP
/// or .haptic) given as text. See include/cabin.h.
@_cdecl("cabin_pattern_load")
public func cabin_pattern_load(_ text: UnsafePointer<CChar>?, _ name: UnsafePointer<CChar>?, _ options: UnsafePointer<CChar>?,
                               _ out: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    cNew(out) { () throws(CFailure) in
        let text = try cString(text, "text")
        return try CPattern(bytes: Array(text.utf8), name: try cOptionalString(name, "name") ?? "pattern", options: options)
    }
}

/// Implements `cabin_pattern_load_file(path, options_json, out)`: reads and compiles the haptic pattern file
/// at `path`. See include/cabin.h.
@_cdecl("cabin_pattern_load_file")
public func cabin_pattern_load_file(_ path: UnsafePointer<CChar>?, _ options: UnsafePointer<CChar>?,
                                    _ out: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    cNew(out) { () throws(CFailure) in
        let path = try cString(path, "path")
        let bytes: [UInt8]
        do { bytes = try DocumentFile.read(path, kind: "document") } catch { throw CFailure(.io, "\(error)") }
        return try CPattern(bytes: bytes, name: path, options: options)
    }
}

/// Implements `cabin_pattern_json(pattern, out_json)`: the compiled event stream as JSON, as `cabin haptics
/// compile` prints it. See include/cabin.h.
@_cdecl("cabin_pattern_json")
public func cabin_pattern_json(_ handle: OpaquePointer?, _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    cCall { () throws(CFailure) in
        let pattern = try CPatternHandle.value(handle, "pattern")
        try cStore(cCopy(pattern.compiled.jsonDocument.serialized()), out, "out")
    }
}

/// Implements `cabin_pattern_warnings(pattern, out_lines)`: the reader's warnings, one line each. See
/// include/cabin.h.
@_cdecl("cabin_pattern_warnings")
public func cabin_pattern_warnings(_ handle: OpaquePointer?, _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    cCall { () throws(CFailure) in
        let pattern = try CPatternHandle.value(handle, "pattern")
        try cStore(cCopy(pattern.warnings.map { $0 + "\n" }.joined()), out, "out")
    }
}

/// Implements `cabin_pattern_audio_frames(pattern, sample_rate, frames)`: the length of the pattern's audio
/// at `sample_rate`, in frames. See include/cabin.h.
@_cdecl("cabin_pattern_audio_frames")
public func cabin_pattern_audio_frames(_ handle: OpaquePointer?, _ sampleRate: Int32, _ frames: UnsafeMutablePointer<Int>?) -> Int32 {
    cCall { () throws(CFailure) in
        let pattern = try CPatternHandle.value(handle, "pattern")
        let rate = try cSampleRate(sampleRate)
        try cStore(HapticAudioRenderer.frameCount(pattern.compiled, options: HapticAudioOptions(sampleRate: rate)), frames, "frames")
    }
}

/// Implements `cabin_pattern_render(pattern, sample_rate, buffer, frames, written)`: renders the pattern's
/// audio (mono) into `buffer`. See include/cabin.h.
@_cdecl("cabin_pattern_render")
public func cabin_pattern_render(_ handle: OpaquePointer?, _ sampleRate: Int32, _ buffer: UnsafeMutablePointer<Float>?,
                                 _ frames: Int, _ written: UnsafeMutablePointer<Int>?) -> Int32 {
    cCall { () throws(CFailure) in
        let pattern = try CPatternHandle.value(handle, "pattern")
        let rate = try cSampleRate(sampleRate)
        guard let buffer else { throw CFailure(.argument, "buffer is NULL") }
        guard frames >= 0 else { throw CFailure(.argument, "frames must be from 0, not \(frames)") }
        let n = pattern.render(rate: rate, into: buffer, frames: frames)
        written?.pointee = n
    }
}

/// Implements `cabin_pattern_free(pattern)`: releases a pattern. See include/cabin.h.
@_cdecl("cabin_pattern_free")
public func cabin_pattern_free(_ handle: OpaquePointer?) {
    CPatternHandle.release(handle)
}
