#include "CCabinCurl.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

/* The runtime name of the library (Debian's libcurl4, which libcurl4-openssl-dev links). */
#define CABIN_CURL_SONAME "libcurl.so.4"

static struct {
    CURL *(*easy_init)(void);
    void (*easy_cleanup)(CURL *);
    CURLcode (*easy_setopt)(CURL *, CURLoption, ...);
    CURLcode (*easy_getinfo)(CURL *, CURLINFO, ...);
    const char *(*easy_strerror)(CURLcode);
    CURLcode (*easy_pause)(CURL *, int);
    CURLM *(*multi_init)(void);
    CURLMcode (*multi_cleanup)(CURLM *);
    CURLMcode (*multi_add_handle)(CURLM *, CURL *);
    CURLMcode (*multi_remove_handle)(CURLM *, CURL *);
    CURLMcode (*multi_perform)(CURLM *, int *);
    CURLMcode (*multi_poll)(CURLM *, struct curl_waitfd *, unsigned int, int, int *);
    CURLMsg *(*multi_info_read)(CURLM *, int *);
    struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
    void (*slist_free_all)(struct curl_slist *);
} api;

static pthread_once_t loaded = PTHREAD_ONCE_INIT;
static char load_error[512];
static int load_failed;

static void *find(void *handle, const char *name) {
    void *address = dlsym(handle, name);
    if (!address && !load_failed) {
        const char *reason = dlerror();
        snprintf(load_error, sizeof load_error, "dlsym %s: %s", name, reason ? reason : "not found");
        load_failed = 1;
    }
    return address;
}

static void load(void) {
    void *handle = dlopen(CABIN_CURL_SONAME, RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        const char *reason = dlerror();
        snprintf(load_error, sizeof load_error, "dlopen %s: %s (network radio needs libcurl4)", CABIN_CURL_SONAME,
                 reason ? reason : "not found");
        load_failed = 1;
        return;
    }
    /* POSIX allows converting dlsym's object pointer to a function pointer. */
#define CABIN_FIND(field, name) *(void **)(&api.field) = find(handle, name)
    CABIN_FIND(easy_init, "curl_easy_init");
    CABIN_FIND(easy_cleanup, "curl_easy_cleanup");
    CABIN_FIND(easy_setopt, "curl_easy_setopt");
    CABIN_FIND(easy_getinfo, "curl_easy_getinfo");
    CABIN_FIND(easy_strerror, "curl_easy_strerror");
    CABIN_FIND(easy_pause, "curl_easy_pause");
    CABIN_FIND(multi_init, "curl_multi_init");
    CABIN_FIND(multi_cleanup, "curl_multi_cleanup");
    CABIN_FIND(multi_add_handle, "curl_multi_add_handle");
    CABIN_FIND(multi_remove_handle, "curl_multi_remove_handle");
    CABIN_FIND(multi_perform, "curl_multi_perform");
    CABIN_FIND(multi_poll, "curl_multi_poll");
    CABIN_FIND(multi_info_read, "curl_multi_info_read");
    CABIN_FIND(slist_append, "curl_slist_append");
    CABIN_FIND(slist_free_all, "curl_slist_free_all");
#undef CABIN_FIND
}

const char *cabin_curl_load(void) {
    pthread_once(&loaded, load);
    return load_failed ? load_error : NULL;
}

CURLcode cabin_curl_set_long(CURL *handle, CURLoption option, long value) {
    return api.easy_setopt(handle, option, value);
}

CURLcode cabin_curl_set_pointer(CURL *handle, CURLoption option, const void *value) {
    return api.easy_setopt(handle, option, value);
}

CURLcode cabin_curl_set_write(CURL *handle, cabin_curl_data_callback callback, void *user) {
    CURLcode code = api.easy_setopt(handle, CURLOPT_WRITEFUNCTION, callback);
    return code != CURLE_OK ? code : api.easy_setopt(handle, CURLOPT_WRITEDATA, user);
}

CURLcode cabin_curl_set_header(CURL *handle, cabin_curl_data_callback callback, void *user) {
    CURLcode code = api.easy_setopt(handle, CURLOPT_HEADERFUNCTION, callback);
    return code != CURLE_OK ? code : api.easy_setopt(handle, CURLOPT_HEADERDATA, user);
}

long cabin_curl_info_long(CURL *handle, CURLINFO info) {
    long value = 0;
    return api.easy_getinfo(handle, info, &value) == CURLE_OK ? value : 0;
}

const char *cabin_curl_info_string(CURL *handle, CURLINFO info) {
    char *value = NULL;
    return api.easy_getinfo(handle, info, &value) == CURLE_OK ? value : NULL;
}

CURL *cabin_curl_easy_init(void) { return api.easy_init(); }
void cabin_curl_easy_cleanup(CURL *handle) { api.easy_cleanup(handle); }
const char *cabin_curl_easy_strerror(CURLcode code) { return api.easy_strerror(code); }
CURLcode cabin_curl_easy_pause(CURL *handle, int bitmask) { return api.easy_pause(handle, bitmask); }
CURLM *cabin_curl_multi_init(void) { return api.multi_init(); }
CURLMcode cabin_curl_multi_cleanup(CURLM *multi) { return api.multi_cleanup(multi); }
CURLMcode cabin_curl_multi_add_handle(CURLM *multi, CURL *handle) { return api.multi_add_handle(multi, handle); }
CURLMcode cabin_curl_multi_remove_handle(CURLM *multi, CURL *handle) { return api.multi_remove_handle(multi, handle); }
CURLMcode cabin_curl_multi_perform(CURLM *multi, int *running) { return api.multi_perform(multi, running); }
CURLMcode cabin_curl_multi_poll(CURLM *multi, struct curl_waitfd *extra, unsigned int count, int timeout_ms,
                                int *ready) {
    return api.multi_poll(multi, extra, count, timeout_ms, ready);
}
CURLMsg *cabin_curl_multi_info_read(CURLM *multi, int *queued) { return api.multi_info_read(multi, queued); }
struct curl_slist *cabin_curl_slist_append(struct curl_slist *list, const char *text) {
    return api.slist_append(list, text);
}
void cabin_curl_slist_free_all(struct curl_slist *list) { api.slist_free_all(list); }
