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

/* The width in columns of the terminal on fd (TIOCGWINSZ), or 0 if fd is not a terminal.
 * Wraps ioctl, which Swift cannot call (it is variadic). */
int cabin_terminal_columns(int fd);
/// The height in rows of the terminal on `fd`, or 0 when it is not a terminal.
int cabin_terminal_rows(int fd);

/* Names the calling thread (15 characters at most), as top and gdb show it.
 * Wraps pthread_setname_np, which Glibc's Swift module does not export. */
void cabin_set_thread_name(const char *name);

/* The calling thread's kernel id (gettid: what /proc/self/task lists), which Glibc's Swift
 * module does not export. Allocates nothing (the allocation check's hook calls it). */
int cabin_thread_id(void);

/* mallopt(M_ARENA_MAX, arenas): <malloc.h> is not in Swift's Glibc module. Returns mallopt's
 * result (1 on success). */
int cabin_set_malloc_arena_max(int arenas);

/* Linux evdev force feedback (evdev.c). The ioctl request numbers are C macros Swift cannot
 * expand; each wrapper returns what ioctl/write return (-1 with errno set on failure). */

/* EVIOCGBIT(type, len): the capability bits of an event type (0 = the event types). */
int cabin_evdev_get_bits(int fd, unsigned int type, void *bits, unsigned int len);

/* EVIOCGNAME(len): the device name, NUL-terminated. */
int cabin_evdev_get_name(int fd, char *name, unsigned int len);

/* EVIOCGEFFECTS: how many effects the device can hold at once. */
int cabin_evdev_get_effects(int fd, int *count);

/* EVIOCSFF with an FF_RUMBLE effect; *id is -1 for a new effect and receives the id the
 * kernel assigned. Lengths in milliseconds. */
int cabin_evdev_upload_rumble(int fd, short *id, unsigned short strong_magnitude,
                              unsigned short weak_magnitude, unsigned short length_ms,
                              unsigned short delay_ms);

/* EVIOCRMFF: removes an uploaded effect. */
int cabin_evdev_remove_effect(int fd, int id);

/* write() of one struct input_event (type, code, value; the kernel stamps the time). */
long cabin_evdev_write_event(int fd, unsigned short type, unsigned short code, int value);

/* sizeof(struct input_event) on this platform. */
unsigned int cabin_evdev_input_event_size(void);

/* The file of the shared library holding `address` (its path as the dynamic loader opened
 * it: /usr/lib/x86_64-linux-gnu/libcabin.so.0), or NULL when `address` is in the main
 * program (whose file is /proc/self/exe) or in nothing loaded. Wraps dladdr1's link map:
 * plain dladdr names the main program by argv[0], which may be a bare name. */
const char *cabin_loaded_object_path(const void *address);

#endif
