/* PipeWire playback for Cabin (see include/CCabinPipeWire.h for why this is C). */
#define _GNU_SOURCE
#include "CCabinPipeWire.h"

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include <pipewire/pipewire.h>
#include <spa/param/audio/format-utils.h>
#include <spa/utils/result.h>

/* How long opening waits for the daemon (listing, the stream's first state). */
#define CABIN_PW_TIMEOUT_SECONDS 5
/* The largest block a callback asks for: PipeWire's largest quantum (clock.max-quantum). */
#define CABIN_PW_MAX_QUANTUM 8192u

static pthread_once_t init_once = PTHREAD_ONCE_INIT;

/* libpipewire prints its own errors on stderr unless told not to: Cabin reports them itself,
 * as one line (PIPEWIRE_DEBUG still turns its log on). */
static void init_pipewire(void) {
    pw_init(NULL, NULL);
    const char *debug = getenv("PIPEWIRE_DEBUG");
    if (debug == NULL || *debug == '\0') pw_log_set_level(SPA_LOG_LEVEL_NONE);
}

static void set_error(cabin_pw_error *e, int kind, int code, const char *operation, const char *format, ...) {
    if (e == NULL) return;
    e->kind = kind;
    e->code = code;
    snprintf(e->operation, sizeof e->operation, "%s", operation);
    va_list args;
    va_start(args, format);
    vsnprintf(e->detail, sizeof e->detail, format, args);
    va_end(args);
}

static int kind_of_errno(int code) {
    switch (code) {
    case ENOENT: return CABIN_PW_NOT_FOUND;
    case EBUSY: return CABIN_PW_BUSY;
    case EACCES: case EPERM: return CABIN_PW_PERMISSION_DENIED;
    case EINVAL: case ENOTSUP: return CABIN_PW_UNSUPPORTED;
    case EPIPE: case ECONNREFUSED: case ECONNRESET: case EHOSTDOWN: case ENOTCONN: return CABIN_PW_DISCONNECTED;
    default: return CABIN_PW_FAILED;
    }
}

static const char *nonempty_env(const char *name) {
    const char *value = getenv(name);
    return value != NULL && *value != '\0' ? value : NULL;
}

int cabin_pw_daemon_answers(const char *remote) {
    if (remote == NULL) remote = nonempty_env("PIPEWIRE_REMOTE");
    if (remote == NULL) remote = "pipewire-0";
    struct sockaddr_un address = { .sun_family = AF_UNIX };
    int length;
    if (remote[0] == '/') {
        length = snprintf(address.sun_path, sizeof address.sun_path, "%s", remote);
    } else {
        const char *dir = nonempty_env("PIPEWIRE_RUNTIME_DIR");
        if (dir == NULL) dir = nonempty_env("XDG_RUNTIME_DIR");
        if (dir == NULL) dir = nonempty_env("USERPROFILE");
        if (dir == NULL) return 0;
        length = snprintf(address.sun_path, sizeof address.sun_path, "%s/%s", dir, remote);
    }
    if (length < 0 || (size_t)length >= sizeof address.sun_path) return 0;
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return 0;
    int answered = connect(fd, (struct sockaddr *)&address, sizeof address) == 0;
    close(fd);
    return answered;
}

/* MARK: listing sinks (a main loop of its own, run until the registry's first round trip) */

struct listing {
    struct pw_main_loop *loop;
    int seq;
    int error;
    char message[200];
    cabin_pw_sink_visitor visit;
    void *context;
};

static void listing_global(void *data, uint32_t id, uint32_t permissions, const char *type, uint32_t version,
                           const struct spa_dict *props) {
    (void)id; (void)permissions; (void)version;
    struct listing *l = data;
    if (props == NULL || strcmp(type, PW_TYPE_INTERFACE_Node) != 0) return;
    const char *class = spa_dict_lookup(props, PW_KEY_MEDIA_CLASS);
    const char *name = spa_dict_lookup(props, PW_KEY_NODE_NAME);
    if (class == NULL || strcmp(class, "Audio/Sink") != 0 || name == NULL) return;
    const char *description = spa_dict_lookup(props, PW_KEY_NODE_DESCRIPTION);
    l->visit(l->context, name, description != NULL ? description : "");
}

static const struct pw_registry_events listing_registry_events = {
    PW_VERSION_REGISTRY_EVENTS,
    .global = listing_global,
};

static void listing_done(void *data, uint32_t id, int seq) {
    struct listing *l = data;
    if (id == PW_ID_CORE && seq == l->seq) pw_main_loop_quit(l->loop);
}

static void listing_core_error(void *data, uint32_t id, int seq, int res, const char *message) {
    (void)seq;
    struct listing *l = data;
    if (id != PW_ID_CORE) return;
    l->error = res < 0 ? -res : EIO;
    snprintf(l->message, sizeof l->message, "%s", message != NULL ? message : strerror(l->error));
    pw_main_loop_quit(l->loop);
}

static const struct pw_core_events listing_core_events = {
    PW_VERSION_CORE_EVENTS,
    .done = listing_done,
    .error = listing_core_error,
};

static void listing_timeout(void *data, uint64_t expirations) {
    (void)expirations;
    struct listing *l = data;
    l->error = ETIMEDOUT;
    snprintf(l->message, sizeof l->message, "the daemon did not answer within %d s", CABIN_PW_TIMEOUT_SECONDS);
    pw_main_loop_quit(l->loop);
}

/* A connection's properties: the remote asked for, if any. */
static struct pw_properties *remote_properties(const char *remote) {
    return remote != NULL ? pw_properties_new(PW_KEY_REMOTE_NAME, remote, NULL) : NULL;
}

int cabin_pw_list_sinks(const char *remote, cabin_pw_sink_visitor visit, void *context, cabin_pw_error *error) {
    pthread_once(&init_once, init_pipewire);
    struct listing l = { .visit = visit, .context = context };
    l.loop = pw_main_loop_new(NULL);
    if (l.loop == NULL) {
        set_error(error, CABIN_PW_FAILED, errno, "pw_main_loop_new", "%s", strerror(errno));
        return -1;
    }
    struct pw_loop *loop = pw_main_loop_get_loop(l.loop);
    struct pw_context *pwcontext = pw_context_new(loop, NULL, 0);
    struct pw_core *core = pwcontext != NULL ? pw_context_connect(pwcontext, remote_properties(remote), 0) : NULL;
    if (core == NULL) {
        int code = errno;
        set_error(error, kind_of_errno(code), code, pwcontext != NULL ? "pw_context_connect" : "pw_context_new", "%s",
                  strerror(code));
        if (pwcontext != NULL) pw_context_destroy(pwcontext);
        pw_main_loop_destroy(l.loop);
        return -1;
    }
    struct spa_hook core_listener, registry_listener;
    spa_zero(core_listener);
    spa_zero(registry_listener);
    pw_core_add_listener(core, &core_listener, &listing_core_events, &l);
    struct pw_registry *registry = pw_core_get_registry(core, PW_VERSION_REGISTRY, 0);
    pw_registry_add_listener(registry, &registry_listener, &listing_registry_events, &l);
    l.seq = pw_core_sync(core, PW_ID_CORE, 0);
    struct spa_source *timer = pw_loop_add_timer(loop, listing_timeout, &l);
    struct timespec timeout = { .tv_sec = CABIN_PW_TIMEOUT_SECONDS };
    pw_loop_update_timer(loop, timer, &timeout, NULL, false);
    pw_main_loop_run(l.loop);
    pw_loop_destroy_source(loop, timer);
    spa_hook_remove(&registry_listener);
    spa_hook_remove(&core_listener);
    pw_proxy_destroy((struct pw_proxy *)registry);
    pw_core_disconnect(core);
    pw_context_destroy(pwcontext);
    pw_main_loop_destroy(l.loop);
    if (l.error != 0) {
        set_error(error, kind_of_errno(l.error), l.error, "pw_core_sync", "%s", l.message);
        return -1;
    }
    return 0;
}

/* MARK: the stream */

struct cabin_pw_output {
    struct pw_thread_loop *loop;
    struct pw_context *context;
    struct pw_core *core;
    struct spa_hook core_listener;
    struct pw_stream *stream;
    struct spa_hook stream_listener;
    /* Written (a count) when the stream fails: what `wait` polls. */
    int event_fd;
    uint32_t channels, stride, max_frames, rate;
    int s16;
    /* S16 streams: the render's floats, converted into the buffer. Allocated at open. */
    float *scratch;
    /* Set before the stream is activated, read on the data thread. */
    cabin_pw_render render;
    void *render_context;
    _Atomic uint64_t xruns;
    /* Frames (at the stream's rate) of graph cycles that went by without this stream. */
    _Atomic uint64_t lost_frames;
    /* Data thread only: the graph's ticks at the last cycle seen and the ticks rendered
     * since (a cycle's length, in the graph's rate). */
    uint64_t last_ticks, ticks_since, tick_rate_num, tick_rate_denom;
    int have_ticks;
    /* Under the thread loop's lock. */
    enum pw_stream_state state;
    int failed;
    cabin_pw_error failure;
};

static void fail(struct cabin_pw_output *o, int code, const char *operation, const char *detail) {
    if (o->failed) return;
    o->failed = 1;
    set_error(&o->failure, code != 0 ? kind_of_errno(code) : CABIN_PW_DISCONNECTED, code, operation, "%s", detail);
    uint64_t one = 1;
    (void)!write(o->event_fd, &one, sizeof one);
    pw_thread_loop_signal(o->loop, false);
}

/* On the thread loop: the daemon's errors on the core (EPIPE: the connection is gone). */
static void output_core_error(void *data, uint32_t id, int seq, int res, const char *message) {
    (void)seq;
    struct cabin_pw_output *o = data;
    if (id != PW_ID_CORE) return;
    int code = res < 0 ? -res : EIO;
    fail(o, code, "pw_core", code == EPIPE ? "the connection to the PipeWire daemon was lost"
                                           : (message != NULL ? message : strerror(code)));
}

static const struct pw_core_events output_core_events = {
    PW_VERSION_CORE_EVENTS,
    .error = output_core_error,
};

/* On the thread loop. */
static void output_state_changed(void *data, enum pw_stream_state old, enum pw_stream_state state, const char *error) {
    struct cabin_pw_output *o = data;
    o->state = state;
    if (state == PW_STREAM_STATE_ERROR) {
        fail(o, 0, "pw_stream", error != NULL ? error : "the stream failed");
    } else if (state == PW_STREAM_STATE_UNCONNECTED && old != PW_STREAM_STATE_UNCONNECTED) {
        fail(o, 0, "pw_stream", "the stream was disconnected");
    }
    pw_thread_loop_signal(o->loop, false);
}

/* On PipeWire's real-time data thread (PW_STREAM_FLAG_RT_PROCESS): one buffer, filled by
 * Cabin's render. No allocation, lock or I/O. */
/* On the data thread, at the start of a cycle: whether graph cycles went by without this
 * stream. pw_time.ticks is the graph driver's clock at the cycle now running (stream.h: "can
 * be used to ... detect discontinuities in the timeline caused by xruns"); the cycle after
 * one this stream served starts that cycle's length later. When the stream's callback was
 * late (a stall: the driver's timer went on and started cycles the stream could not serve,
 * each an xrun of the graph, the sink playing silence), the next cycle's ticks are further
 * on by the cycles missed: one xrun, and those frames lost. pw_stream_get_time_n reads a
 * copy under a sequence counter: no lock, allocation or I/O. */
static void note_graph_xruns(struct cabin_pw_output *o) {
    struct pw_time t;
    if (pw_stream_get_time_n(o->stream, &t, sizeof t) < 0 || t.rate.num == 0 || t.rate.denom == 0) return;
    if (o->have_ticks && t.ticks == o->last_ticks) return;
    if (o->have_ticks && t.ticks > o->last_ticks && o->ticks_since > 0) {
        uint64_t expected = o->last_ticks + o->ticks_since;
        uint64_t gap = t.ticks > expected ? t.ticks - expected : 0;
        /* Whole cycles are lost; a rate-matching resampler's few frames of drift are not. */
        if (2 * gap >= o->ticks_since) {
            uint64_t frames = gap * t.rate.num * o->rate / t.rate.denom;
            atomic_fetch_add_explicit(&o->lost_frames, frames, memory_order_relaxed);
            atomic_fetch_add_explicit(&o->xruns, 1, memory_order_relaxed);
        }
    }
    o->have_ticks = 1;
    o->last_ticks = t.ticks;
    o->ticks_since = 0;
    o->tick_rate_num = t.rate.num;
    o->tick_rate_denom = t.rate.denom;
}

/* The frames of a cycle just served, in the graph's ticks. */
static void note_cycle(struct cabin_pw_output *o, uint32_t frames) {
    if (o->tick_rate_num == 0) return;
    o->ticks_since += (uint64_t)frames * o->tick_rate_denom / ((uint64_t)o->tick_rate_num * o->rate);
}

static void output_process(void *data) {
    struct cabin_pw_output *o = data;
    note_graph_xruns(o);
    struct pw_buffer *b = pw_stream_dequeue_buffer(o->stream);
    if (b == NULL) {
        atomic_fetch_add_explicit(&o->xruns, 1, memory_order_relaxed);
        return;
    }
    struct spa_data *d = &b->buffer->datas[0];
    if (d->data == NULL) {
        pw_stream_queue_buffer(o->stream, b);
        return;
    }
    uint32_t frames = d->maxsize / o->stride;
    if (b->requested != 0 && b->requested < frames) frames = (uint32_t)b->requested;
    if (frames > o->max_frames) frames = o->max_frames;
    if (o->render == NULL) {
        memset(d->data, 0, (size_t)frames * o->stride);
    } else if (o->s16) {
        o->render(o->render_context, o->scratch, frames);
        int16_t *out = d->data;
        for (uint32_t i = 0; i < frames * o->channels; i++) {
            float v = o->scratch[i] * 32767.0f;
            out[i] = (int16_t)(v > 32767.0f ? 32767.0f : v < -32768.0f ? -32768.0f : v);
        }
    } else {
        o->render(o->render_context, d->data, frames);
    }
    d->chunk->offset = 0;
    d->chunk->stride = (int32_t)o->stride;
    d->chunk->size = frames * o->stride;
    b->size = frames;
    pw_stream_queue_buffer(o->stream, b);
    note_cycle(o, frames);
}

static const struct pw_stream_events output_stream_events = {
    PW_VERSION_STREAM_EVENTS,
    .state_changed = output_state_changed,
    .process = output_process,
};

struct target_search {
    const char *name;
    int found;
};

static void find_target(void *context, const char *name, const char *description) {
    (void)description;
    struct target_search *search = context;
    if (strcmp(search->name, name) == 0) search->found = 1;
}

static void fill_positions(struct spa_audio_info_raw *info) {
    static const uint32_t quad[4] = { SPA_AUDIO_CHANNEL_FL, SPA_AUDIO_CHANNEL_FR, SPA_AUDIO_CHANNEL_RL, SPA_AUDIO_CHANNEL_RR };
    switch (info->channels) {
    case 1: info->position[0] = SPA_AUDIO_CHANNEL_MONO; break;
    case 2: case 4: memcpy(info->position, quad, info->channels * sizeof quad[0]); break;
    default: info->flags |= SPA_AUDIO_FLAG_UNPOSITIONED; break;
    }
}

cabin_pw_output *cabin_pw_output_open(const cabin_pw_stream_request *request, uint32_t *max_frames, cabin_pw_error *error) {
    pthread_once(&init_once, init_pipewire);
    if (request->channels == 0 || request->channels > SPA_AUDIO_MAX_CHANNELS || request->rate == 0) {
        set_error(error, CABIN_PW_UNSUPPORTED, EINVAL, "pw_stream_connect", "%u channels at %u Hz", request->channels,
                  request->rate);
        return NULL;
    }
    if (request->target != NULL) {
        struct target_search search = { .name = request->target };
        if (cabin_pw_list_sinks(request->remote, find_target, &search, error) != 0) return NULL;
        if (!search.found) {
            set_error(error, CABIN_PW_NOT_FOUND, ENOENT, "target.object", "no PipeWire sink has this node.name");
            return NULL;
        }
    }
    struct cabin_pw_output *o = calloc(1, sizeof *o);
    if (o == NULL) {
        set_error(error, CABIN_PW_FAILED, ENOMEM, "calloc", "%s", strerror(ENOMEM));
        return NULL;
    }
    o->event_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    o->channels = request->channels;
    o->s16 = request->s16 != 0;
    o->stride = request->channels * (o->s16 ? 2 : 4);
    o->rate = request->rate;
    o->max_frames = request->period_frames > CABIN_PW_MAX_QUANTUM ? request->period_frames : CABIN_PW_MAX_QUANTUM;
    *max_frames = o->max_frames;
    if (o->s16) o->scratch = calloc((size_t)o->max_frames * o->channels, sizeof(float));
    o->loop = pw_thread_loop_new("cabin-pipewire", NULL);
    if (o->event_fd < 0 || (o->s16 && o->scratch == NULL) || o->loop == NULL) {
        int code = errno;
        set_error(error, CABIN_PW_FAILED, code, o->loop == NULL ? "pw_thread_loop_new" : "eventfd", "%s", strerror(code));
        cabin_pw_output_close(o);
        return NULL;
    }
    /* client-rt.conf: the client's data thread asks for real-time scheduling (module-rt). */
    o->context = pw_context_new(pw_thread_loop_get_loop(o->loop),
                                pw_properties_new(PW_KEY_CONFIG_NAME, "client-rt.conf", NULL), 0);
    if (o->context == NULL) {
        int code = errno;
        set_error(error, CABIN_PW_FAILED, code, "pw_context_new", "%s", strerror(code));
        cabin_pw_output_close(o);
        return NULL;
    }
    if (pw_thread_loop_start(o->loop) != 0) {
        set_error(error, CABIN_PW_FAILED, errno, "pw_thread_loop_start", "%s", strerror(errno));
        cabin_pw_output_close(o);
        return NULL;
    }
    pw_thread_loop_lock(o->loop);
    o->core = pw_context_connect(o->context, remote_properties(request->remote), 0);
    if (o->core == NULL) {
        int code = errno;
        pw_thread_loop_unlock(o->loop);
        set_error(error, kind_of_errno(code), code, "pw_context_connect", "%s", strerror(code));
        cabin_pw_output_close(o);
        return NULL;
    }
    pw_core_add_listener(o->core, &o->core_listener, &output_core_events, o);
    char latency[48], rate[32];
    snprintf(latency, sizeof latency, "%u/%u", request->period_frames, request->rate);
    snprintf(rate, sizeof rate, "1/%u", request->rate);
    struct pw_properties *props = pw_properties_new(
        PW_KEY_MEDIA_TYPE, "Audio",
        PW_KEY_MEDIA_CATEGORY, "Playback",
        PW_KEY_MEDIA_ROLE, request->media_role,
        PW_KEY_APP_NAME, request->application_name,
        PW_KEY_NODE_NAME, request->node_name,
        PW_KEY_NODE_LATENCY, latency,
        PW_KEY_NODE_RATE, rate,
        NULL);
    if (request->target != NULL) {
        pw_properties_set(props, PW_KEY_TARGET_OBJECT, request->target);
        /* The sink asked for, or nothing: never moved to another when it goes away. */
        pw_properties_set(props, PW_KEY_NODE_DONT_RECONNECT, "true");
    }
    o->stream = pw_stream_new(o->core, request->node_name, props);
    if (o->stream == NULL) {
        int code = errno;
        pw_thread_loop_unlock(o->loop);
        set_error(error, CABIN_PW_FAILED, code, "pw_stream_new", "%s", strerror(code));
        cabin_pw_output_close(o);
        return NULL;
    }
    pw_stream_add_listener(o->stream, &o->stream_listener, &output_stream_events, o);
    uint8_t pod[1024];
    struct spa_pod_builder builder = SPA_POD_BUILDER_INIT(pod, sizeof pod);
    struct spa_audio_info_raw info = {
        .format = o->s16 ? SPA_AUDIO_FORMAT_S16 : SPA_AUDIO_FORMAT_F32,
        .rate = request->rate,
        .channels = request->channels,
    };
    fill_positions(&info);
    const struct spa_pod *params[1] = { spa_format_audio_raw_build(&builder, SPA_PARAM_EnumFormat, &info) };
    int res = pw_stream_connect(o->stream, PW_DIRECTION_OUTPUT, PW_ID_ANY,
                                PW_STREAM_FLAG_AUTOCONNECT | PW_STREAM_FLAG_MAP_BUFFERS | PW_STREAM_FLAG_RT_PROCESS
                                    | PW_STREAM_FLAG_INACTIVE,
                                params, 1);
    if (res < 0) {
        pw_thread_loop_unlock(o->loop);
        set_error(error, kind_of_errno(-res), -res, "pw_stream_connect", "%s", spa_strerror(res));
        cabin_pw_output_close(o);
        return NULL;
    }
    /* Connected once the daemon has made the node (PAUSED), or failed. */
    struct timespec deadline;
    pw_thread_loop_get_time(o->loop, &deadline, CABIN_PW_TIMEOUT_SECONDS * SPA_NSEC_PER_SEC);
    while (!o->failed && o->state != PW_STREAM_STATE_PAUSED && o->state != PW_STREAM_STATE_STREAMING) {
        if (pw_thread_loop_timed_wait_full(o->loop, &deadline) != 0) {
            fail(o, ETIMEDOUT, "pw_stream_connect", "the daemon did not make the stream's node in time");
        }
    }
    int failed = o->failed;
    if (failed && error != NULL) *error = o->failure;
    pw_thread_loop_unlock(o->loop);
    if (failed) {
        cabin_pw_output_close(o);
        return NULL;
    }
    struct spa_thread *data_thread = pw_data_loop_get_thread(pw_context_get_data_loop(o->context));
    if (data_thread != NULL) pthread_setname_np((pthread_t)data_thread, CABIN_PW_DATA_THREAD);
    return o;
}

int cabin_pw_output_start(cabin_pw_output *o, cabin_pw_render render, void *context, cabin_pw_error *error) {
    pw_thread_loop_lock(o->loop);
    int failed = o->failed;
    if (failed) {
        if (error != NULL) *error = o->failure;
    } else {
        o->render_context = context;
        o->render = render;
        int res = pw_stream_set_active(o->stream, true);
        if (res < 0) {
            failed = 1;
            set_error(error, kind_of_errno(-res), -res, "pw_stream_set_active", "%s", spa_strerror(res));
        }
    }
    pw_thread_loop_unlock(o->loop);
    return failed ? -1 : 0;
}

int cabin_pw_output_wait(cabin_pw_output *o, int extra_fd, int timeout_ms, cabin_pw_error *error) {
    struct pollfd fds[2] = { { .fd = o->event_fd, .events = POLLIN }, { .fd = extra_fd, .events = POLLIN } };
    int n = poll(fds, extra_fd >= 0 ? 2 : 1, timeout_ms);
    pw_thread_loop_lock(o->loop);
    int failed = o->failed;
    if (failed && error != NULL) *error = o->failure;
    pw_thread_loop_unlock(o->loop);
    if (failed) return 1;
    if (n > 0 && extra_fd >= 0 && (fds[1].revents & POLLIN)) return 2;
    return 0;
}

int cabin_pw_output_set_period(cabin_pw_output *o, uint32_t period_frames, cabin_pw_error *error) {
    if (period_frames == 0 || period_frames > o->max_frames) {
        set_error(error, CABIN_PW_UNSUPPORTED, EINVAL, "node.latency", "a period of %u frames (1 to %u)", period_frames,
                  o->max_frames);
        return -1;
    }
    char latency[48];
    snprintf(latency, sizeof latency, "%u/%u", period_frames, o->rate);
    const struct spa_dict_item items[1] = { SPA_DICT_ITEM_INIT(PW_KEY_NODE_LATENCY, latency) };
    const struct spa_dict dict = SPA_DICT_INIT(items, 1);
    pw_thread_loop_lock(o->loop);
    int failed = o->failed;
    if (failed) {
        if (error != NULL) *error = o->failure;
    } else {
        /* The node's properties go to the daemon, which recalculates the graph's quantum. */
        int res = pw_stream_update_properties(o->stream, &dict);
        if (res < 0) {
            failed = 1;
            set_error(error, kind_of_errno(-res), -res, "pw_stream_update_properties", "%s", spa_strerror(res));
        }
    }
    pw_thread_loop_unlock(o->loop);
    return failed ? -1 : 0;
}

uint64_t cabin_pw_output_xruns(cabin_pw_output *o) {
    return atomic_load_explicit(&o->xruns, memory_order_relaxed);
}

uint64_t cabin_pw_output_lost_frames(cabin_pw_output *o) {
    return atomic_load_explicit(&o->lost_frames, memory_order_relaxed);
}

int64_t cabin_pw_output_delay(cabin_pw_output *o) {
    struct pw_time t;
    if (o->stream == NULL || pw_stream_get_time_n(o->stream, &t, sizeof t) < 0 || t.rate.denom == 0) return -1;
    int64_t delay = t.delay * (int64_t)t.rate.num * (int64_t)o->rate / (int64_t)t.rate.denom;
    return delay + (int64_t)t.buffered + (int64_t)(t.queued / o->stride);
}

void cabin_pw_output_close(cabin_pw_output *o) {
    if (o == NULL) return;
    if (o->loop != NULL) {
        pw_thread_loop_lock(o->loop);
        if (o->stream != NULL) {
            /* Disconnecting removes the process callback from the data loop and waits for it. */
            pw_stream_disconnect(o->stream);
            spa_hook_remove(&o->stream_listener);
            pw_stream_destroy(o->stream);
            o->stream = NULL;
        }
        if (o->core != NULL) {
            spa_hook_remove(&o->core_listener);
            pw_core_disconnect(o->core);
            o->core = NULL;
        }
        pw_thread_loop_unlock(o->loop);
        pw_thread_loop_stop(o->loop);
    }
    if (o->context != NULL) pw_context_destroy(o->context);
    if (o->loop != NULL) pw_thread_loop_destroy(o->loop);
    if (o->event_fd >= 0) close(o->event_fd);
    free(o->scratch);
    free(o);
}
