#include "CCabinShims.h"
#include <alsa/asoundlib.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static __thread char last_error[512];
static __thread char taken[512];

static void cabin_alsa_error_handler(const char *file, int line, const char *function, int err,
                                     const char *fmt, ...) {
    (void)file; (void)line; (void)function; (void)err;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(last_error, sizeof last_error, fmt, ap);
    va_end(ap);
}

void cabin_alsa_capture_errors(void) {
    snd_lib_error_set_handler(cabin_alsa_error_handler);
}

const char *cabin_alsa_take_last_error(void) {
    memcpy(taken, last_error, sizeof taken);
    last_error[0] = 0;
    return taken;
}
