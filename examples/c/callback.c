/* Cabin in callback mode, from C: an app that owns its audio callback (JACK, PipeWire, SDL,
 * a game engine; here a loop stands in for it) asks Cabin for every block and gets the
 * session with the player's whole transport. It pauses at 1 s and resumes at 2 s of the
 * ambient preset (rain), printing each quarter second's level and the player's events.
 * Build: gcc callback.c $(pkg-config --cflags --libs cabin) -lm */
#include <cabin.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

enum { RATE = 48000, BLOCK = 240 }; /* 5 ms blocks */

static void check(cabin_status status, const char *what) {
    if (status == CABIN_OK) return;
    fprintf(stderr, "%s: %s: %s\n", what, cabin_status_name(status), cabin_last_error());
    exit(1);
}

/* The app's audio callback, on its real-time thread: cabin_player_render never locks,
 * allocates or blocks. */
static void audio_callback(cabin_player *player, float *out, size_t frames) {
    if (cabin_player_render(player, out, frames) != CABIN_OK) {
        for (size_t i = 0; i < 2 * frames; i++) out[i] = 0;
    }
}

static void print_events(cabin_player *player) {
    char *lines = NULL;
    check(cabin_player_poll(player, &lines), "poll");
    fputs(lines, stdout);
    cabin_free(lines);
}

int main(void) {
    cabin_session *session;
    check(cabin_session_load_preset("ambient", "{\"minutes\": 1}", NULL, &session), "load");
    cabin_player *player;
    /* 48 kHz stereo, at most BLOCK frames a callback, heard BLOCK frames after it renders. */
    check(cabin_player_open_callback(session, RATE, 2, BLOCK, BLOCK, &player), "open");
    check(cabin_player_start(player), "start");

    static float block[2 * BLOCK];
    double energy = 0;
    for (long frame = 0; frame < 3 * RATE; frame += BLOCK) {
        if (frame == 1 * RATE) check(cabin_player_pause(player), "pause");
        if (frame == 2 * RATE) check(cabin_player_resume(player), "resume");
        audio_callback(player, block, BLOCK);
        for (int i = 0; i < 2 * BLOCK; i++) energy += (double)block[i] * block[i];
        long done = frame + BLOCK;
        if (done % (RATE / 4) == 0) {
            printf("%.2f s: %.1f dBFS\n", done / (double)RATE, 10 * log10(energy / (2.0 * RATE / 4) + 1e-30));
            energy = 0;
            print_events(player);
        }
    }
    /* The stop fades out over 0.2 s; a device paces a real callback, this loop waits 1 ms a
     * block until the player says the session has ended. */
    check(cabin_player_stop(player), "stop");
    int finished = 0;
    for (int i = 0; i < 5000 && !finished; i++) {
        audio_callback(player, block, BLOCK);
        check(cabin_player_is_finished(player, &finished), "is_finished");
        if (!finished) usleep(1000);
    }
    print_events(player);
    cabin_player_free(player);
    cabin_session_free(session);
    return 0;
}
