/*
 * cabin_test_sink.c — Cabin's paced test sink: an ALSA external (ioplug) playback PCM that
 * behaves like a sound card with no sound, for the live-playback tests.
 *
 * - Real time: the card's position is CLOCK_MONOTONIC since start × rate. It never drifts;
 *   after a scheduling hiccup of the application it has simply moved on, as DMA does.
 * - Blocking and poll like hardware: a timerfd ticks once a period; a full buffer blocks a
 *   blocking write, and poll() wakes at period boundaries.
 * - Underruns like hardware: when the position passes what the application wrote, the
 *   stream goes to XRUN and the application gets -EPIPE (stop threshold = buffer size).
 * - Capture: what was played goes to a WAV file (the `file` setting, or the environment
 *   variable CABIN_SINK_FILE — another one with the `env` setting — which wins; empty: no
 *   capture), with silence for the time
 *   the stream was not playing between starts (after an underrun, a pause), so the file is
 *   what a loudspeaker would have emitted.
 *
 * Formats S16_LE, S32_LE, FLOAT_LE; interleaved; 1–32 channels; 8–384 kHz.
 *
 * Built by the test support (Tests/CabinTestSupport/PacedSink.swift):
 *   cc -O2 -fPIC -DPIC -shared -o libasound_module_pcm_cabintest.so cabin_test_sink.c -lasound
 * and used through an ALSA configuration:
 *   pcm_type.cabintest { lib "/path/libasound_module_pcm_cabintest.so" }
 *   pcm.cabintest { type cabintest }
 */
#define _GNU_SOURCE
#include <alsa/asoundlib.h>
#include <alsa/pcm_external.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

typedef struct {
    snd_pcm_ioplug_t io;
    int timer;                  /* timerfd: the period "interrupt" */
    char *path;                 /* capture file, or NULL */
    FILE *capture;
    uint64_t captured;          /* frames in the capture's data chunk */
    unsigned bytes_per_frame;
    int64_t started_ns;         /* when position 0 would have played; 0 = not running */
    int64_t silent_since_ns;    /* end of the last frame played (for gap silence); 0 = none */
    uint64_t position;          /* frames played since prepare */
    snd_pcm_uframes_t boundary;
    int underrun;
} sink_t;

static int64_t monotonic_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000000000LL + t.tv_nsec;
}

static uint64_t ns_to_frames(int64_t ns, unsigned rate) { return (uint64_t)((__int128)ns * rate / 1000000000LL); }
static int64_t frames_to_ns(uint64_t frames, unsigned rate) { return (int64_t)((__int128)frames * 1000000000LL / rate); }

/* The RIFF header for what has been captured so far (rewritten at every stop and close). */
static void write_header(sink_t *s) {
    if (!s->capture) return;
    snd_pcm_ioplug_t *io = &s->io;
    uint16_t bits = (uint16_t)snd_pcm_format_physical_width(io->format);
    uint16_t tag = io->format == SND_PCM_FORMAT_FLOAT_LE ? 3 : 1;
    uint16_t channels = (uint16_t)io->channels, align = (uint16_t)s->bytes_per_frame;
    uint32_t rate = io->rate, byte_rate = rate * align, fmt_size = 16;
    uint64_t bytes = s->captured * align;
    uint32_t data = bytes > 0xFFFFFFD0ULL ? 0xFFFFFFD0U : (uint32_t)bytes, riff = 36 + data;
    long end = ftell(s->capture);
    fseek(s->capture, 0, SEEK_SET);
    fwrite("RIFF", 1, 4, s->capture); fwrite(&riff, 4, 1, s->capture);
    fwrite("WAVEfmt ", 1, 8, s->capture); fwrite(&fmt_size, 4, 1, s->capture);
    fwrite(&tag, 2, 1, s->capture); fwrite(&channels, 2, 1, s->capture);
    fwrite(&rate, 4, 1, s->capture); fwrite(&byte_rate, 4, 1, s->capture);
    fwrite(&align, 2, 1, s->capture); fwrite(&bits, 2, 1, s->capture);
    fwrite("data", 1, 4, s->capture); fwrite(&data, 4, 1, s->capture);
    fseek(s->capture, end > 44 ? end : 44, SEEK_SET);
    fflush(s->capture);
}

static void capture_silence(sink_t *s, uint64_t frames) {
    static const char zeros[8192];
    if (!s->capture) return;
    uint64_t left = frames * s->bytes_per_frame;
    while (left) {
        size_t n = left < sizeof zeros ? (size_t)left : sizeof zeros;
        fwrite(zeros, 1, n, s->capture);
        left -= n;
    }
    s->captured += frames;
}

/* Plays n frames from the ring buffer at the current position. */
static void play(sink_t *s, uint64_t n) {
    snd_pcm_ioplug_t *io = &s->io;
    if (s->capture && n) {
        const snd_pcm_channel_area_t *areas = snd_pcm_ioplug_mmap_areas(io);
        const char *ring = (const char *)areas[0].addr + areas[0].first / 8;
        uint64_t at = s->position % io->buffer_size, left = n;
        while (left) {
            uint64_t run = io->buffer_size - at < left ? io->buffer_size - at : left;
            fwrite(ring + at * s->bytes_per_frame, s->bytes_per_frame, run, s->capture);
            left -= run;
            at = 0;
        }
        s->captured += n;
    }
    s->position += n;
}

/* Moves the position to now: plays what the application queued, up to the clock. */
static void advance(sink_t *s) {
    snd_pcm_ioplug_t *io = &s->io;
    if (!s->started_ns || s->underrun) return;
    if (io->state != SND_PCM_STATE_RUNNING && io->state != SND_PCM_STATE_DRAINING) return;
    uint64_t due = ns_to_frames(monotonic_ns() - s->started_ns, io->rate);
    if (due <= s->position) return;
    uint64_t queued = (uint64_t)(io->appl_ptr - s->position);
    uint64_t n = due - s->position;
    if (n > queued) {
        play(s, queued);
        if (io->state == SND_PCM_STATE_RUNNING) s->underrun = 1;   /* ran dry: XRUN */
    } else {
        play(s, n);
    }
    s->silent_since_ns = s->started_ns + frames_to_ns(s->position, io->rate);
}

static void arm(sink_t *s, int64_t first_ns) {
    snd_pcm_ioplug_t *io = &s->io;
    int64_t period = io->rate ? frames_to_ns(io->period_size, io->rate) : 1000000;
    if (period <= 0) period = 1000000;
    struct itimerspec spec = {
        .it_interval = { period / 1000000000LL, period % 1000000000LL },
        .it_value = { first_ns / 1000000000LL, first_ns % 1000000000LL },
    };
    timerfd_settime(s->timer, TFD_TIMER_ABSTIME, &spec, NULL);
}

static int sink_start(snd_pcm_ioplug_t *io) {
    sink_t *s = io->private_data;
    int64_t now = monotonic_ns();
    if (s->silent_since_ns && now > s->silent_since_ns)        /* the gap was heard as silence */
        capture_silence(s, ns_to_frames(now - s->silent_since_ns, io->rate));
    s->started_ns = now - frames_to_ns(s->position, io->rate);
    s->silent_since_ns = now;
    arm(s, s->started_ns + frames_to_ns(s->position + io->period_size, io->rate));
    return 0;
}

static int sink_stop(snd_pcm_ioplug_t *io) {
    sink_t *s = io->private_data;
    advance(s);
    s->started_ns = 0;
    arm(s, monotonic_ns());   /* poll must not block while stopped */
    write_header(s);
    return 0;
}

static snd_pcm_sframes_t sink_pointer(snd_pcm_ioplug_t *io) {
    sink_t *s = io->private_data;
    advance(s);
    if (s->underrun) return -EPIPE;
    return (snd_pcm_sframes_t)(s->position % (s->boundary ? s->boundary : io->buffer_size));
}

static int sink_delay(snd_pcm_ioplug_t *io, snd_pcm_sframes_t *delay) {
    sink_t *s = io->private_data;
    advance(s);
    if (s->underrun) return -EPIPE;
    *delay = (snd_pcm_sframes_t)(io->appl_ptr - s->position);
    return 0;
}

static int sink_prepare(snd_pcm_ioplug_t *io) {
    sink_t *s = io->private_data;
    snd_pcm_sw_params_t *sw;
    snd_pcm_sw_params_alloca(&sw);
    s->boundary = 0;
    if (snd_pcm_sw_params_current(io->pcm, sw) == 0) snd_pcm_sw_params_get_boundary(sw, &s->boundary);
    s->position = 0;
    s->underrun = 0;
    s->started_ns = 0;
    arm(s, monotonic_ns());
    return 0;
}

static int sink_pause(snd_pcm_ioplug_t *io, int enable) {
    sink_t *s = io->private_data;
    if (!enable) return sink_start(io);
    advance(s);
    s->started_ns = 0;
    arm(s, monotonic_ns());
    return 0;
}

static int sink_drain(snd_pcm_ioplug_t *io) {
    sink_t *s = io->private_data;
    if (!s->started_ns) {
        if (io->appl_ptr == s->position) return 0;
        sink_start(io);
    }
    while (!s->underrun) {
        advance(s);
        uint64_t left = (uint64_t)(io->appl_ptr - s->position);
        if (!left) break;
        int64_t end = s->started_ns + frames_to_ns(s->position + left, io->rate);
        struct timespec until = { end / 1000000000LL, end % 1000000000LL };
        clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &until, NULL);
    }
    write_header(s);
    return 0;
}

static int sink_poll_revents(snd_pcm_ioplug_t *io, struct pollfd *fds, unsigned int count, unsigned short *revents) {
    sink_t *s = io->private_data;
    uint64_t ticks;
    (void)count;
    if (read(s->timer, &ticks, sizeof ticks) < 0) { /* nothing pending: a spurious wake-up */ }
    *revents = (fds[0].revents & POLLIN) ? POLLOUT : 0;
    return 0;
}

static int sink_hw_params(snd_pcm_ioplug_t *io, snd_pcm_hw_params_t *params) {
    sink_t *s = io->private_data;
    (void)params;
    s->bytes_per_frame = io->channels * snd_pcm_format_physical_width(io->format) / 8;
    if (s->path && !s->capture) {
        s->capture = fopen(s->path, "w+b");
        if (!s->capture) {
            SNDERR("cabintest: cannot write %s: %s", s->path, strerror(errno));
            return -errno;
        }
        s->captured = 0;
        write_header(s);
        s->silent_since_ns = 0;
    }
    return 0;
}

static int sink_close(snd_pcm_ioplug_t *io) {
    sink_t *s = io->private_data;
    if (s->capture) {
        write_header(s);
        fclose(s->capture);
    }
    close(s->timer);
    free(s->path);
    free(s);
    return 0;
}

static const snd_pcm_ioplug_callback_t callbacks = {
    .start = sink_start,
    .stop = sink_stop,
    .pointer = sink_pointer,
    .close = sink_close,
    .hw_params = sink_hw_params,
    .prepare = sink_prepare,
    .drain = sink_drain,
    .pause = sink_pause,
    .poll_revents = sink_poll_revents,
    .delay = sink_delay,
};

SND_PCM_PLUGIN_DEFINE_FUNC(cabintest) {
    snd_config_iterator_t i, next;
    const char *file = NULL, *variable = "CABIN_SINK_FILE";
    int err;
    (void)root;
    snd_config_for_each(i, next, conf) {
        snd_config_t *entry = snd_config_iterator_entry(i);
        const char *id;
        if (snd_config_get_id(entry, &id) < 0) continue;
        if (!strcmp(id, "comment") || !strcmp(id, "type") || !strcmp(id, "hint")) continue;
        if (!strcmp(id, "file")) {
            if (snd_config_get_string(entry, &file) < 0) return -EINVAL;
            continue;
        }
        if (!strcmp(id, "env")) {
            if (snd_config_get_string(entry, &variable) < 0) return -EINVAL;
            continue;
        }
        SNDERR("cabintest: unknown setting %s", id);
        return -EINVAL;
    }
    if (stream != SND_PCM_STREAM_PLAYBACK) {
        SNDERR("cabintest: playback only");
        return -EINVAL;
    }
    if (*variable && getenv(variable)) file = getenv(variable);

    sink_t *s = calloc(1, sizeof *s);
    if (!s) return -ENOMEM;
    s->path = file && *file ? strdup(file) : NULL;
    s->timer = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
    if (s->timer < 0) {
        err = -errno;
        free(s->path);
        free(s);
        return err;
    }
    s->io.version = SND_PCM_IOPLUG_VERSION;
    s->io.name = "Cabin's paced test sink";
    s->io.callback = &callbacks;
    s->io.private_data = s;
    s->io.poll_fd = s->timer;
    s->io.poll_events = POLLIN;
    s->io.mmap_rw = 1;
    s->io.flags = SND_PCM_IOPLUG_FLAG_MONOTONIC | SND_PCM_IOPLUG_FLAG_BOUNDARY_WA;
    if ((err = snd_pcm_ioplug_create(&s->io, name, stream, mode)) < 0) {
        close(s->timer);
        free(s->path);
        free(s);
        return err;
    }
    static const unsigned int access[] = { SND_PCM_ACCESS_RW_INTERLEAVED, SND_PCM_ACCESS_MMAP_INTERLEAVED };
    static const unsigned int formats[] = { SND_PCM_FORMAT_S16_LE, SND_PCM_FORMAT_S32_LE, SND_PCM_FORMAT_FLOAT_LE };
    if ((err = snd_pcm_ioplug_set_param_list(&s->io, SND_PCM_IOPLUG_HW_ACCESS, 2, access)) < 0 ||
        (err = snd_pcm_ioplug_set_param_list(&s->io, SND_PCM_IOPLUG_HW_FORMAT, 3, formats)) < 0 ||
        (err = snd_pcm_ioplug_set_param_minmax(&s->io, SND_PCM_IOPLUG_HW_CHANNELS, 1, 32)) < 0 ||
        (err = snd_pcm_ioplug_set_param_minmax(&s->io, SND_PCM_IOPLUG_HW_RATE, 8000, 384000)) < 0 ||
        (err = snd_pcm_ioplug_set_param_minmax(&s->io, SND_PCM_IOPLUG_HW_PERIOD_BYTES, 32, 1 << 20)) < 0 ||
        (err = snd_pcm_ioplug_set_param_minmax(&s->io, SND_PCM_IOPLUG_HW_PERIODS, 2, 1024)) < 0 ||
        (err = snd_pcm_ioplug_set_param_minmax(&s->io, SND_PCM_IOPLUG_HW_BUFFER_BYTES, 64, 16 << 20)) < 0) {
        snd_pcm_ioplug_delete(&s->io);
        return err;
    }
    *pcmp = s->io.pcm;
    return 0;
}

SND_PCM_PLUGIN_SYMBOL(cabintest);
