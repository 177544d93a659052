#ifndef CCABINCURL_H
#define CCABINCURL_H
/* libcurl for Cabin's network radio, opened with dlopen the first time a station connects
 * (cabin_curl_load) rather than linked: libcurl and what it pulls in (OpenSSL, GnuTLS,
 * Kerberos, LDAP, libssh2, RTMP, nghttp2, … about 40 libraries) cost every start of `cabin`
 * about 4 ms of dynamic linking, and most runs never open a stream. Only curl.h's types and
 * constants are used from the header; every call goes through these wrappers.
 *
 * curl_easy_setopt and curl_easy_getinfo are C variadic functions, which Swift cannot call;
 * their wrappers take one typed argument each. */
#include <curl/curl.h>

/* Opens libcurl (once, thread-safe). NULL when it is ready; else one line saying why it could
 * not be opened (the wrappers below must then not be called). */
const char *cabin_curl_load(void);

/* curl_easy_setopt with a long, a pointer (strings, lists, user data) or a callback. */
CURLcode cabin_curl_set_long(CURL *handle, CURLoption option, long value);
CURLcode cabin_curl_set_pointer(CURL *handle, CURLoption option, const void *value);

/* The callbacks Cabin sets: data (CURLOPT_WRITEFUNCTION), header lines
 * (CURLOPT_HEADERFUNCTION); both get the user pointer set with the matching *DATA option. */
typedef size_t (*cabin_curl_data_callback)(char *data, size_t size, size_t count, void *user);
CURLcode cabin_curl_set_write(CURL *handle, cabin_curl_data_callback callback, void *user);
CURLcode cabin_curl_set_header(CURL *handle, cabin_curl_data_callback callback, void *user);

/* curl_easy_getinfo for a long (CURLINFO_RESPONSE_CODE) or a string (CURLINFO_CONTENT_TYPE,
 * CURLINFO_EFFECTIVE_URL; NULL when absent). */
long cabin_curl_info_long(CURL *handle, CURLINFO info);
const char *cabin_curl_info_string(CURL *handle, CURLINFO info);

/* The rest of the calls Cabin makes, each the libcurl function of the same name without
 * the cabin_ prefix. */
CURL *cabin_curl_easy_init(void);
void cabin_curl_easy_cleanup(CURL *handle);
const char *cabin_curl_easy_strerror(CURLcode code);
CURLcode cabin_curl_easy_pause(CURL *handle, int bitmask);
CURLM *cabin_curl_multi_init(void);
CURLMcode cabin_curl_multi_cleanup(CURLM *multi);
CURLMcode cabin_curl_multi_add_handle(CURLM *multi, CURL *handle);
CURLMcode cabin_curl_multi_remove_handle(CURLM *multi, CURL *handle);
CURLMcode cabin_curl_multi_perform(CURLM *multi, int *running);
CURLMcode cabin_curl_multi_poll(CURLM *multi, struct curl_waitfd *extra, unsigned int count, int timeout_ms,
                                int *ready);
CURLMsg *cabin_curl_multi_info_read(CURLM *multi, int *queued);
struct curl_slist *cabin_curl_slist_append(struct curl_slist *list, const char *text);
void cabin_curl_slist_free_all(struct curl_slist *list);

#endif
