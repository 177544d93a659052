#ifndef CCABINCURL_H
#define CCABINCURL_H
/* libcurl for Cabin's network radio: curl_easy_setopt and curl_easy_getinfo are C variadic
 * functions, which Swift cannot call; these wrappers take one typed argument each. */
#include <curl/curl.h>

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

#endif
