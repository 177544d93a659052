#define _GNU_SOURCE
#include <pthread.h>
#include <dlfcn.h>
#include <link.h>
#include <malloc.h>
#include "CCabinShims.h"
#include <alsa/asoundlib.h>
#include <sys/ioctl.h>
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

void cabin_set_thread_name(const char *name) {
    char buf[16];
    strncpy(buf, name, sizeof buf - 1);
    buf[sizeof buf - 1] = 0;
    pthread_setname_np(pthread_self(), buf);
}

int cabin_thread_id(void) {
    return (int)gettid();
}

int cabin_terminal_columns(int fd) {
    struct winsize size;
    if (ioctl(fd, TIOCGWINSZ, &size) != 0) return 0;
    return size.ws_col;
}

int cabin_terminal_rows(int fd) {
    struct winsize size;
    if (ioctl(fd, TIOCGWINSZ, &size) != 0) return 0;
    return size.ws_row;
}

int cabin_set_malloc_arena_max(int arenas) {
    return mallopt(M_ARENA_MAX, arenas);
}

const char *cabin_loaded_object_path(const void *address) {
    Dl_info info;
    struct link_map *map = NULL;
    if (dladdr1(address, &info, (void **)&map, RTLD_DL_LINKMAP) == 0 || map == NULL) return NULL;
    if (map->l_name == NULL || map->l_name[0] != '/') return NULL;
    return map->l_name;
}
