#ifndef CCABINFASTFLOAT_H
#define CCABINFASTFLOAT_H
/* Decimal text to a double, exact and rounded to nearest-even as strtod rounds, by Lemire's
 * fast_float (Debian's libfast-float-dev, header-only; the library behind GCC 12's
 * std::from_chars for floating point): Clinger's fast path, then Eisel–Lemire, then big-integer
 * digit comparison for the rare inputs those cannot decide. No allocation, no locale, no errno,
 * no global state: a pure function of the bytes. */
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What cabin_parse_double found (in Swift: .parsed, .outOfRange, .notANumber). */
typedef enum __attribute__((enum_extensibility(closed))) CabinParseDoubleOutcome {
    CabinParseDoubleParsed = 0,
    /* The number is past the largest double: it rounds to ±infinity (*value holds it). A
     * non-zero number below the least subnormal is not out of range here: it rounds to ±0 and
     * is parsed, as strtod's value (and Swift's Double(String)) is. */
    CabinParseDoubleOutOfRange = 1,
    /* [first, last) is not, all of it, one decimal number in strtod's C-locale syntax (no
     * white space, no '+' before it, no hex, inf or nan); *value is untouched. */
    CabinParseDoubleNotANumber = 2,
} CabinParseDoubleOutcome;

/* Parses the decimal number [first, last) into *value. Thread: any (a pure function). */
CabinParseDoubleOutcome cabin_parse_double(const uint8_t *first, const uint8_t *last, double *value);

#ifdef __cplusplus
}
#endif
#endif
