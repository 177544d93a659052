#ifndef CCABINSHIMS_H
#define CCABINSHIMS_H
/* Small C shims for the parts of C APIs that Swift cannot call directly, and system headers
 * that Glibc does not bring in (eventfd). */
#include <sys/eventfd.h>

/* Routes ALSA library error messages (normally printed to stderr as "ALSA lib ...")
 * into a per-thread buffer instead, so Cabin can report them in its own one-line errors.
 * Wraps snd_lib_error_set_handler, whose handler is a C variadic function. Idempotent. */
void cabin_alsa_capture_errors(void);

/* The last ALSA library message captured on this thread ("" if none), and clears it. */
const char *cabin_alsa_take_last_error(void);

/* Names the calling thread (15 characters at most), as top and gdb show it.
 * Wraps pthread_setname_np, which Glibc's Swift module does not export. */
void cabin_set_thread_name(const char *name);

#endif
