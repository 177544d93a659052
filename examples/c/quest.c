/* Cabin from C: renders the first 2 s of the quest preset into a buffer and prints its level,
 * then plays it on the silent clock ("none": no sound device needed) for 1 s and prints its
 * events as JSON lines. Build: gcc quest.c $(pkg-config --cflags --libs cabin) -lm */
#include <cabin.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

static void check(cabin_status status, const char *what) {
    if (status == CABIN_OK) return;
    fprintf(stderr, "%s: %s: %s\n", what, cabin_status_name(status), cabin_last_error());
    exit(1);
}

int main(void) {
    printf("cabin %s\n", cabin_version());
    double t0 = now();
    cabin_session *session;
    check(cabin_session_load_preset("quest", "{\"seconds\": 30}", NULL, &session), "load");

    /* Offline: 2 s at 48 kHz, interleaved stereo, in blocks of 4800 frames. */
    enum { RATE = 48000, FRAMES = 2 * RATE, BLOCK = 4800 };
    float *samples = malloc(sizeof(float) * 2 * FRAMES);
    cabin_renderer *renderer;
    check(cabin_renderer_open(session, RATE, &renderer), "renderer");
    size_t done = 0, n;
    while (done < FRAMES) {
        check(cabin_renderer_render(renderer, samples + 2 * done, BLOCK, &n), "render");
        if (done == 0) printf("first block rendered in %.0f ms\n", (now() - t0) * 1000);
        if (n == 0) break;
        done += n;
    }
    double sum = 0;
    for (size_t i = 0; i < 2 * done; i++) sum += samples[i] * samples[i];
    printf("rendered %zu frames, RMS %.1f dBFS\n", done, 10 * log10(sum / (2.0 * done) + 1e-30));
    cabin_renderer_free(renderer);
    free(samples);

    /* Live, on the silent clock: 1 s, then a stop (a fade) and its end event. */
    t0 = now();
    cabin_player *player;
    check(cabin_player_open(session, "none", &player), "open");
    check(cabin_player_start(player), "start");
    cabin_status status = cabin_player_set_parameter(player, "sped", 1);  /* a typo: an error, no crash */
    printf("set_parameter sped: %s: %s\n", cabin_status_name(status), cabin_last_error());
    int finished = 0, first = 1, stopped = 0;
    for (double start = now(); !finished && now() - start < 5; usleep(50000)) {
        if (!stopped && now() - start >= 1) check(cabin_player_stop(player), "stop"), stopped = 1;
        char *lines;
        check(cabin_player_poll(player, &lines), "poll");
        if (first && *lines) printf("first event after %.0f ms\n", (now() - t0) * 1000), first = 0;
        fputs(lines, stdout);
        cabin_free(lines);
        check(cabin_player_is_finished(player, &finished), "is_finished");
    }
    cabin_player_free(player);
    cabin_session_free(session);
    return finished ? 0 : 1;
}
