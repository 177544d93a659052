/*
 * cabin.h — Cabin's C API (libcabin.so): sessions, live playback, offline rendering and
 * haptic patterns, for C and for anything that calls C (Python's ctypes: python/cabin).
 *
 * Copyright 2026 the Cabin authors. Apache-2.0 (LICENSE).
 *
 * Conventions
 * - Handles (cabin_session, cabin_player, cabin_renderer, cabin_pattern) are opaque; each is
 *   made by a *_load / *_open function and released by its *_free, which accepts NULL.
 * - Every function that can fail returns a cabin_status. CABIN_OK is 0; on any other value
 *   cabin_last_error() gives the reason (one or more lines of UTF-8). A NULL pointer where one
 *   is needed, a string that is not UTF-8, a value out of range: CABIN_ERROR_ARGUMENT, never
 *   a crash. Out-parameters are written only on CABIN_OK.
 * - Strings in are UTF-8, NUL-terminated, and copied: the caller keeps ownership. Strings
 *   out (char **) are allocated by the library; release them with cabin_free().
 * - Audio is 32-bit float in caller-owned buffers: sessions are interleaved stereo
 *   (2 floats a frame), pattern audio mono. Levels are full scale at 1.0.
 * - Times are seconds (double); volumes decibels (double; -INFINITY is silence).
 * - Options are JSON objects in text (NULL: the defaults); an unknown key is an error.
 * - Threads: each function says. "Any thread" means any thread at any time; "any thread,
 *   one call at a time per handle" means the caller serialises calls on that handle.
 *   Nothing here may be called from a real-time audio callback.
 *
 * Callback mode: an application that owns its audio callback (JACK, PipeWire, SDL, a game
 * engine) opens a player with cabin_player_open_callback and calls cabin_player_render from
 * that callback; everything else (start, pause, seek, volumes, parameters, live events, poll)
 * works as on a device. cabin_player_render is the one function that may be called from a
 * real-time audio callback.
 */
#ifndef CABIN_H
#define CABIN_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------- errors and memory */

typedef enum cabin_status {
    CABIN_OK = 0,
    CABIN_ERROR_ARGUMENT = 1,  /* NULL pointer, not UTF-8, bad JSON option, value out of range */
    CABIN_ERROR_DOCUMENT = 2,  /* the session or pattern has errors: the message lists them, located */
    CABIN_ERROR_NOT_FOUND = 3, /* no such preset, parameter, bus, live event or sound folder */
    CABIN_ERROR_DEVICE = 4,    /* the sound device cannot be opened or the audio thread started */
    CABIN_ERROR_IO = 5,        /* a file cannot be read or written */
    CABIN_ERROR_STATE = 6      /* not now: a player started twice, or not started yet */
} cabin_status;

/* The message of the last call on this thread that did not return CABIN_OK (NULL if none has
 * failed). Owned by the library; valid until the next failing call on this thread.
 * Thread: any (each thread has its own). */
const char *cabin_last_error(void);

/* The status's name ("CABIN_ERROR_DOCUMENT"); "CABIN_UNKNOWN_STATUS" for another value.
 * Owned by the library, never freed. Thread: any. */
const char *cabin_status_name(int status);

/* Releases a string the library returned through a char ** (NULL: nothing).
 * Thread: any. */
void cabin_free(void *pointer);

/* Cabin's version, "MAJOR.MINOR.PATCH": what `cabin --version` prints. Owned by the library.
 * Thread: any. */
const char *cabin_version(void);

/* ---------------------------------------------------------------- sessions */

/* A session document, read and checked (unknown buses, layers, sounds, patterns, values out
 * of range are CABIN_ERROR_DOCUMENT, located and with "did you mean"); sounds are loaded when
 * it is played or rendered, at the rate that needs. Immutable: any thread may use one session
 * at once, for any number of players and renderers. */
typedef struct cabin_session cabin_session;

/* options_json (may be NULL), for all three loaders:
 *   {"sounds": "DIR",      the sound library (default: $CABIN_SOUNDS, the Sounds/ beside the
 *                          build or above the program, ~/.local/share/cabin, /usr/share/cabin)
 *    "patterns": "DIR",    the haptic pattern library (default: $CABIN_PATTERNS, the same places)
 *    "haptic_strength": "off" | "light" | "medium" | "strong",
 *    "seed": N}            the seed of the session's variations (default: the document's)
 */

/* Reads the session document at path (JSON, docs/SESSION-FORMAT.md); relative sound paths
 * are relative to its folder. Thread: any. */
cabin_status cabin_session_load_file(const char *path, const char *options_json, cabin_session **out);

/* Reads a session document given as JSON text; relative sound paths are relative to folder
 * (NULL: the current directory). Thread: any. */
cabin_status cabin_session_load_json(const char *json, const char *folder, const char *options_json,
                                     cabin_session **out);

/* Makes a preset ("drive", "pomodoro", "ambient", "breathing", "quest", "ui") with its
 * options as a JSON object, {"minutes": 50, "destination": "Yosemite"} (NULL: the defaults;
 * the names are `cabin play --preset NAME --help`'s without dashes). An unknown preset is
 * CABIN_ERROR_NOT_FOUND, a bad option CABIN_ERROR_ARGUMENT. Thread: any. */
cabin_status cabin_session_load_preset(const char *name, const char *preset_options_json, const char *options_json,
                                       cabin_session **out);

/* The session as JSON: {"title", "duration" (s), "buses": [names], "parameters": [{"name",
 * "value", "min", "max"}], "events": [live event names], "warnings": [lines]}.
 * Thread: any. */
cabin_status cabin_session_info(const cabin_session *session, char **out_json);

/* The session document itself (a preset's, as `cabin session --preset` prints it).
 * Thread: any. */
cabin_status cabin_session_json(const cabin_session *session, char **out_json);

/* Thread: any, once no other call uses the session (players and renderers keep what they
 * need: they may outlive it). */
void cabin_session_free(cabin_session *session);

/* ---------------------------------------------------------------- live playback */

/* A session playing in real time on a sound device, or on the system clock with no sound.
 * Every function locks the player: any thread may call, one call runs at a time. */
typedef struct cabin_player cabin_player;

/* Opens device (an ALSA name: "default", "hw:1", "pipewire"; NULL is "default") and loads the
 * session at the rate it plays (sounds finish decoding while it plays). "none" plays on the
 * system clock with no sound; so does "default" on a machine with no sound device at all
 * (the start event's "silentReason" says so). Nothing plays before cabin_player_start.
 * Errors: CABIN_ERROR_DEVICE, CABIN_ERROR_DOCUMENT (a sound that cannot load).
 * Thread: any. */
cabin_status cabin_player_open(const cabin_session *session, const char *device, cabin_player **out);

/* Callback mode: a player whose device is the caller's own audio callback. The session is
 * loaded at sample_rate (0: 48000); cabin_player_render gives channels (1-8; stereo's left
 * and right in turn beyond 2) interleaved floats a frame, at most max_frames (1-8192) frames
 * rendered at a time (larger requests are rendered in parts); latency_frames is how far
 * behind the callback the listener hears (0 if unknown: status and seeks count it). Every
 * sound is decoded before it returns (a callback may ask faster than real time).
 * Errors: CABIN_ERROR_ARGUMENT, CABIN_ERROR_DOCUMENT (a sound that cannot load).
 * Thread: any. */
cabin_status cabin_player_open_callback(const cabin_session *session, int sample_rate, int channels, int max_frames,
                                        int latency_frames, cabin_player **out);

/* Fills out with the next frames of a callback-mode player, exactly as the player plays
 * them on a device (pause and seek fades, volumes, parameters, live events); silence before
 * cabin_player_start and after the session has ended. Never locks, allocates, blocks or
 * does I/O. Errors (no message is set: it would allocate): CABIN_ERROR_ARGUMENT for NULL,
 * CABIN_ERROR_STATE for a player not opened by cabin_player_open_callback.
 * Thread: the caller's audio thread (one at a time per player), while the player lives. */
cabin_status cabin_player_render(cabin_player *player, float *out, size_t frames);

/* Starts playing. A player plays once: a second start is CABIN_ERROR_STATE.
 * Thread: any (locked). */
cabin_status cabin_player_start(cabin_player *player);

/* Fades out and holds the session's clock / fades back in. CABIN_ERROR_STATE before start.
 * Thread: any (locked). */
cabin_status cabin_player_pause(cabin_player *player);
cabin_status cabin_player_resume(cabin_player *player);

/* Moves to seconds on the timeline (clamped to it), with the transport's fade.
 * Thread: any (locked). */
cabin_status cabin_player_seek(cabin_player *player, double seconds);

/* Fades out and ends the session (the end event's reason is "stopped"); a second stop does
 * nothing. cabin_player_free stops at once. Thread: any (locked). */
cabin_status cabin_player_stop(cabin_player *player);

/* A session parameter ("speed"): set (clamped to its range; the engine ramps to it) or read
 * (the value set, else the timeline's). An unknown name is CABIN_ERROR_NOT_FOUND.
 * Thread: any (locked). */
cabin_status cabin_player_set_parameter(cabin_player *player, const char *name, double value);
cabin_status cabin_player_get_parameter(cabin_player *player, const char *name, double *value);

/* The listener's volume in dB, of the master (bus NULL) or a bus ("radio"): -200 to +6.8 dB,
 * or -INFINITY. Mute holds the master silent without losing its level.
 * Thread: any (locked). */
cabin_status cabin_player_set_volume(cabin_player *player, const char *bus, double decibels);
cabin_status cabin_player_set_muted(cabin_player *player, int muted);

/* Triggers a live event the session answers to ("leave-focus", "return-focus" in sessions with
 * "focus"); the session's are in cabin_session_info's "events". An unknown name is
 * CABIN_ERROR_NOT_FOUND. Thread: any (locked). */
cabin_status cabin_player_trigger(cabin_player *player, const char *event);

/* The events since the last poll as JSON lines, each ending in "\n" ("" when none): the lines
 * `cabin play --json` prints and the control socket's "observe" sends, e.g.
 *   {"device":"none",...,"event":"start","title":"Quest"}
 *   {"event":"mark","name":"rest","time":1500,"title":"rest stop"}
 *   {"event":"end","reason":"finished","time":600,"xruns":0}
 * Call it regularly (every 50-250 ms) while playing: it also releases what the audio thread
 * has finished with. Thread: any (locked). */
cabin_status cabin_player_poll(cabin_player *player, char **out_lines);

/* What the control socket's "status" answers (`cabin ctl status --json`): title, state,
 * position, duration, parameters, volumes, xruns, device, events. Thread: any (locked). */
cabin_status cabin_player_status(cabin_player *player, char **out_json);

/* Where the listener is on the timeline, in seconds; whether the session has ended (its end,
 * a stop, or a device that did not come back). Thread: any (locked). */
cabin_status cabin_player_position(cabin_player *player, double *seconds);
cabin_status cabin_player_is_finished(cabin_player *player, int *finished);

/* Stops at once (no fade), waits for the audio thread and releases the player.
 * Thread: any, once no other call uses the player. */
void cabin_player_free(cabin_player *player);

/* ---------------------------------------------------------------- offline rendering */

/* Renders the session to a sound file as fast as the machine goes: the format from the
 * extension (.wav, .flac, .aiff: 16-bit; .ogg, .opus, .mp3), written beside the destination
 * and renamed at the end (a failure leaves nothing). sample_rate 0 is 48000. from and to are
 * seconds on the timeline (from 0 is the start; to negative is the end). The same bits as
 * `cabin render`. Thread: any. */
cabin_status cabin_render_file(const cabin_session *session, const char *path, int sample_rate, double from, double to);

/* A session loaded at sample_rate (0: 48000) and rendered block by block into the caller's
 * buffers: the same samples cabin_render_file writes. One call at a time per renderer. */
typedef struct cabin_renderer cabin_renderer;

/* Thread: any. */
cabin_status cabin_renderer_open(const cabin_session *session, int sample_rate, cabin_renderer **out);

/* The session's length and the frames rendered so far (either pointer may be NULL, not both).
 * Thread: any, one call at a time per renderer. */
cabin_status cabin_renderer_frames(const cabin_renderer *renderer, int64_t *total_frames, int64_t *position);

/* Renders the next `frames` frames of interleaved stereo into buffer (2 * frames floats);
 * *rendered (may be NULL) is how many belong to the session: fewer at its end, 0 after it
 * (the rest of the buffer is left as it was). Thread: any, one call at a time per renderer. */
cabin_status cabin_renderer_render(cabin_renderer *renderer, float *buffer, size_t frames, size_t *rendered);

/* Thread: any, once no other call uses the renderer. */
void cabin_renderer_free(cabin_renderer *renderer);

/* ---------------------------------------------------------------- haptic patterns */

/* A haptic pattern (Apple AHAP or Meta/Lofelt .haptic, told apart by content), read and
 * compiled to an intensity/sharpness event stream. Immutable: any thread, any time. */
typedef struct cabin_pattern cabin_pattern;

/* options_json (may be NULL): {"strength": "off" | "light" | "medium" | "strong",
 * "strict": true (warnings are errors)}. name is what messages call it (NULL: "pattern").
 * A pattern with errors is CABIN_ERROR_DOCUMENT, every problem located. Thread: any. */
cabin_status cabin_pattern_load(const char *text, const char *name, const char *options_json, cabin_pattern **out);
cabin_status cabin_pattern_load_file(const char *path, const char *options_json, cabin_pattern **out);

/* The compiled stream as JSON: `cabin haptics compile`'s output ({"breakpoints": [{"time",
 * "intensity", "sharpness"}], "transients": [...], "duration", ...}). Thread: any. */
cabin_status cabin_pattern_json(const cabin_pattern *pattern, char **out_json);

/* The reader's warnings, one line each ("" when none). Thread: any. */
cabin_status cabin_pattern_warnings(const cabin_pattern *pattern, char **out_lines);

/* The pattern as audio (what `cabin haptics render` writes, mono: a sine whose pitch follows
 * sharpness and level intensity, transients as short bursts, the peak at most -1 dBFS; the
 * pattern's own AudioCustom sounds are not mixed in): its length in frames at sample_rate
 * (0: 48000), and its first `frames` frames rendered into buffer (*written, may be NULL: how
 * many). Thread: any. */
cabin_status cabin_pattern_audio_frames(const cabin_pattern *pattern, int sample_rate, size_t *frames);
cabin_status cabin_pattern_render(const cabin_pattern *pattern, int sample_rate, float *buffer, size_t frames,
                                  size_t *written);

/* Thread: any, once no other call uses the pattern. */
void cabin_pattern_free(cabin_pattern *pattern);

#ifdef __cplusplus
}
#endif

#endif /* CABIN_H */
