#include "CCabinCurl.h"

CURLcode cabin_curl_set_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

CURLcode cabin_curl_set_pointer(CURL *handle, CURLoption option, const void *value) {
    return curl_easy_setopt(handle, option, value);
}

CURLcode cabin_curl_set_write(CURL *handle, cabin_curl_data_callback callback, void *user) {
    CURLcode code = curl_easy_setopt(handle, CURLOPT_WRITEFUNCTION, callback);
    return code != CURLE_OK ? code : curl_easy_setopt(handle, CURLOPT_WRITEDATA, user);
}

CURLcode cabin_curl_set_header(CURL *handle, cabin_curl_data_callback callback, void *user) {
    CURLcode code = curl_easy_setopt(handle, CURLOPT_HEADERFUNCTION, callback);
    return code != CURLE_OK ? code : curl_easy_setopt(handle, CURLOPT_HEADERDATA, user);
}

long cabin_curl_info_long(CURL *handle, CURLINFO info) {
    long value = 0;
    return curl_easy_getinfo(handle, info, &value) == CURLE_OK ? value : 0;
}

const char *cabin_curl_info_string(CURL *handle, CURLINFO info) {
    char *value = NULL;
    return curl_easy_getinfo(handle, info, &value) == CURLE_OK ? value : NULL;
}
