// cabin_parse_double: fast_float's from_chars over the whole range, with strtod's range
// outcomes named (see the header).
#include "CCabinFastFloat.h"

#include <fast_float/fast_float.h>

extern "C" CabinParseDoubleOutcome cabin_parse_double(const uint8_t *first, const uint8_t *last, double *value) {
    const char *begin = reinterpret_cast<const char *>(first);
    const char *end = reinterpret_cast<const char *>(last);
    // A digit or the point first (after a minus): from_chars alone would also read inf and nan.
    const char *lead = begin != end && *begin == '-' ? begin + 1 : begin;
    if (lead == end || !((*lead >= '0' && *lead <= '9') || *lead == '.')) return CabinParseDoubleNotANumber;
    double parsed;
    fast_float::from_chars_result result = fast_float::from_chars(begin, end, parsed);
    if (result.ec != std::errc() || result.ptr != end) return CabinParseDoubleNotANumber;
    *value = parsed;
    // Past the largest double: ±infinity. (A non-zero number below the least subnormal rounds to
    // ±0 and is parsed, as strtod's value is and Swift's Double(String) gave it.)
    if (parsed == __builtin_inf() || parsed == -__builtin_inf()) return CabinParseDoubleOutOfRange;
    return CabinParseDoubleParsed;
}
