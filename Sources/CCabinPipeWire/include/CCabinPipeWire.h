#ifndef CCABINPIPEWIRE_H
#define CCABINPIPEWIRE_H
/* PipeWire playback for Cabin: a pw_stream on a pw_thread_loop, its process callback on
 * PipeWire's real-time data thread calling Cabin's render, and the sinks listed by node name.
 *
 * Why C: the stream's format is a SPA pod, built with inline functions and macros
 * (spa_pod_builder, SPA_AUDIO_INFO_RAW_INIT, spa_format_audio_raw_build) that Swift cannot
 * call; the process callback dequeues, fills and queues a buffer through structs of nested
 * unions; and the event tables (pw_stream_events, pw_core_events, pw_registry_events) are
 * versioned structs of function pointers. This header hides all of it behind plain calls:
 * Swift (CabinIO's PipeWireOutput) never sees a PipeWire type. */
#include <stddef.h>
#include <stdint.h>

/* The name given to the stream's real-time data thread (libpipewire leaves it unnamed), where
 * the process callback runs: for `top -H` and the allocation check. */
#define CABIN_PW_DATA_THREAD "cabin-pw-data"

/* The kinds a failure maps into (CabinOutput's AudioDeviceFailure, in its order). */
enum {
    CABIN_PW_NOT_FOUND = 0,
    CABIN_PW_BUSY = 1,
    CABIN_PW_PERMISSION_DENIED = 2,
    CABIN_PW_UNSUPPORTED = 3,
    CABIN_PW_DISCONNECTED = 4,
    CABIN_PW_FAILED = 5,
};

/* What failed: a kind above, the errno (0 if none), the PipeWire call and its words. */
typedef struct {
    int kind;
    int code;
    char operation[48];
    char detail[256];
} cabin_pw_error;

/* Renders `frames` interleaved float frames into `samples`, on PipeWire's real-time thread:
 * must not allocate, lock, block or do I/O. */
typedef void (*cabin_pw_render)(void *context, float *samples, uint32_t frames);

typedef struct cabin_pw_output cabin_pw_output;

/* What a stream asks for. `target` is a sink's node.name, or NULL for PipeWire's default;
 * `remote` the daemon's socket (a name in the runtime folder or a path), NULL for libpipewire's
 * own choice ($PIPEWIRE_REMOTE, else pipewire-0). */
typedef struct {
    const char *remote;
    const char *target;
    const char *application_name;
    const char *node_name;
    const char *media_role;       /* "Music", "Notification" */
    uint32_t rate;
    uint32_t channels;
    uint32_t period_frames;       /* node.latency = period/rate */
    int s16;                      /* 0: F32 interleaved, 1: S16 interleaved (converted here) */
} cabin_pw_stream_request;

/* Whether a PipeWire daemon listens on the socket libpipewire would connect to
 * ($PIPEWIRE_REMOTE, in $PIPEWIRE_RUNTIME_DIR, $XDG_RUNTIME_DIR or $USERPROFILE): one
 * connect(2), no library initialised. */
int cabin_pw_daemon_answers(const char *remote);

/* Connects, checks the target is a sink, creates and connects the stream (inactive: no
 * callback runs before start). NULL with `error` filled on failure. `max_frames` gets the
 * largest block a callback will ask for. */
cabin_pw_output *cabin_pw_output_open(const cabin_pw_stream_request *request, uint32_t *max_frames,
                                      cabin_pw_error *error);
/* Starts the callbacks; `render` is called with `context` on the data thread until close. */
int cabin_pw_output_start(cabin_pw_output *output, cabin_pw_render render, void *context, cabin_pw_error *error);
/* Waits until the stream fails (1, `error` filled), `extra_fd` is readable (2), or the
 * timeout (0). A failure already seen is returned at once. */
int cabin_pw_output_wait(cabin_pw_output *output, int extra_fd, int timeout_ms, cabin_pw_error *error);
/* Asks for callbacks of `period_frames` from now on, while playing: node.latency becomes
 * period_frames/rate, as at open (pw_stream_update_properties, under the thread loop's lock;
 * the daemon recalculates the graph's quantum, which it clamps to its clock.min-quantum and
 * clock.max-quantum and which another stream's smaller latency may lower). 0, or -1 with
 * `error` filled. Not on the data thread. */
int cabin_pw_output_set_period(cabin_pw_output *output, uint32_t period_frames, cabin_pw_error *error);
/* Xruns: callbacks that found no buffer to fill, and runs of graph cycles that went by
 * without the stream (its callback was late: seen in the graph's ticks, pw_time.ticks). */
uint64_t cabin_pw_output_xruns(cabin_pw_output *output);
/* The frames (at the stream's rate) of those cycles: time the sink played without the
 * stream. Real-time safe. */
uint64_t cabin_pw_output_lost_frames(cabin_pw_output *output);
/* Frames between the next rendered frame and what is heard (the graph's delay to the sink,
 * the resampler's and what is queued), or -1 before the first cycle. Real-time safe. */
int64_t cabin_pw_output_delay(cabin_pw_output *output);
/* Stops the callbacks (none runs once it returns), disconnects, frees. */
void cabin_pw_output_close(cabin_pw_output *output);

/* Calls `visit` for each Audio/Sink node (node.name, node.description or "") of the daemon at
 * `remote` (NULL: libpipewire's choice); 0, or -1 with `error` filled (no daemon). */
typedef void (*cabin_pw_sink_visitor)(void *context, const char *name, const char *description);
int cabin_pw_list_sinks(const char *remote, cabin_pw_sink_visitor visit, void *context, cabin_pw_error *error);

#endif
