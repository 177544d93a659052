/// Whole-block loops for the mixer, written with SIMD vectors so that they run four or
/// eight samples per instruction.
///
/// Why by hand: the scalar loops carry a running `max`, and Swift's `max` (which must give
/// an answer for NaN) keeps the optimizer from vectorizing the reduction. Each element gets
/// exactly the operation the scalar loop gives it (one multiply, one add, in the same
/// order), so the samples are bit-identical; only the order in which the running maximum
/// is taken changes, which gives the same maximum for any non-NaN values.
///
/// Thread: pure functions over caller-owned memory. Render thread: safe.
enum BlockMath {
    /// `mix[i] += source[i] * gain` for `count` samples; returns the largest |source[i] * gain|
    /// (0 for an empty block).
    @inline(__always)
    #if !DEBUG  // checked by the optimizer; debug code calls unspecialised generics
    @_noAllocation @_noLocks
    #endif
    static func accumulate(_ source: UnsafePointer<Float>, scaledBy gain: Float,
                           into mix: UnsafeMutablePointer<Float>, count: Int) -> Float {
        let g = SIMD8<Float>(repeating: gain)
        var peaks = SIMD8<Float>(repeating: 0)
        var i = 0
        while i + 8 <= count {
            let v = load8(source + i) * g
            store8(load8(mix + i) + v, mix + i)
            let a = abs8(v)
            peaks.replace(with: a, where: a .> peaks)
            i += 8
        }
        // Lane by lane (`SIMD.max()` is an out-of-line generic call).
        var peak = max(max(max(peaks[0], peaks[1]), max(peaks[2], peaks[3])),
                       max(max(peaks[4], peaks[5]), max(peaks[6], peaks[7])))
        while i < count {
            let v = source[i] * gain
            mix[i] += v
            peak = max(peak, abs(v))
            i += 1
        }
        return peak
    }

    /// True when every one of `count` samples has |x| < `limit` (false for a NaN).
    @inline(__always)
    #if !DEBUG  // checked by the optimizer; debug code calls unspecialised generics
    @_noAllocation @_noLocks
    #endif
    static func allBelow(_ source: UnsafePointer<Float>, count: Int, limit: Float) -> Bool {
        let l = SIMD8<Float>(repeating: limit)
        var below = SIMDMask<SIMD8<Int32>>(repeating: true)
        var i = 0
        while i + 8 <= count {
            below .&= abs8(load8(source + i)) .< l
            i += 8
        }
        var result = all(below)
        while i < count {
            result = result && abs(source[i]) < limit
            i += 1
        }
        return result
    }

    @inline(__always) private static func load8(_ p: UnsafePointer<Float>) -> SIMD8<Float> {
        UnsafeRawPointer(p).loadUnaligned(as: SIMD8<Float>.self)
    }

    @inline(__always) private static func store8(_ v: SIMD8<Float>, _ p: UnsafeMutablePointer<Float>) {
        UnsafeMutableRawPointer(p).storeBytes(of: v, as: SIMD8<Float>.self)
    }

    /// |x| by clearing the sign bit (what `abs` does to each lane).
    @inline(__always) private static func abs8(_ v: SIMD8<Float>) -> SIMD8<Float> {
        unsafeBitCast(unsafeBitCast(v, to: SIMD8<UInt32>.self) & 0x7FFF_FFFF, to: SIMD8<Float>.self)
    }
}

extension UnsafeMutablePointer where Pointee: Numeric {
    /// `count` elements allocated and set to zero (control thread: it allocates).
    static func zeroed(_ count: Int) -> UnsafeMutablePointer<Pointee> {
        let p = allocate(capacity: count)
        p.initialize(repeating: 0, count: count)
        return p
    }
}
