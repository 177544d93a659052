// libmpg123 prints decoding trouble in a damaged MP3 ("[src/libmpg123/layer3.c:…] error:
// dequantization failed!", "Note: Trying to resync...") on stderr, several lines a frame,
// unless a handle has MPG123_QUIET. Cabin's own MP3 decoder (MP3FeedDecoder) sets it;
// libsndfile, which decodes MP3 files, creates its handle with mpg123_new and offers no way
// to pass the flag. So the edge wraps mpg123_new (the dynamic linker binds libsndfile's call
// to this definition, which the executable exports) and adds MPG123_QUIET to every handle.
// Errors are still returned to the caller; only the printing stops.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <mpg123.h>
#include <stddef.h>

typedef mpg123_handle *(*cabin_mpg123_new_fn)(const char *, int *);

mpg123_handle *mpg123_new(const char *decoder, int *error) {
    static cabin_mpg123_new_fn real = NULL;
    cabin_mpg123_new_fn next = __atomic_load_n(&real, __ATOMIC_ACQUIRE);
    if (next == NULL) {
        next = (cabin_mpg123_new_fn)dlsym(RTLD_NEXT, "mpg123_new");
        if (next == NULL) {
            if (error != NULL) *error = MPG123_ERR;
            return NULL;
        }
        __atomic_store_n(&real, next, __ATOMIC_RELEASE);
    }
    mpg123_handle *handle = next(decoder, error);
    if (handle != NULL) mpg123_param2(handle, MPG123_ADD_FLAGS, MPG123_QUIET, 0);
    return handle;
}
