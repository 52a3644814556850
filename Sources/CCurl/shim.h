#ifndef SG_CCURL_SHIM_H
#define SG_CCURL_SHIM_H

// libcurl's easy interface. curl_easy_setopt and curl_easy_getinfo are variadic, which Swift cannot call:
// these wrappers give each argument type its own function.
#include <curl/curl.h>

static inline CURLcode sg_curl_set_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode sg_curl_set_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode sg_curl_set_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode sg_curl_set_list(CURL *handle, CURLoption option, struct curl_slist *value) {
    return curl_easy_setopt(handle, option, value);
}

/// CURLOPT_READFUNCTION, CURLOPT_WRITEFUNCTION and CURLOPT_HEADERFUNCTION share this shape.
typedef size_t (*sg_curl_data_callback)(char *buffer, size_t size, size_t count, void *context);

static inline CURLcode sg_curl_set_callback(CURL *handle, CURLoption option, sg_curl_data_callback callback) {
    return curl_easy_setopt(handle, option, callback);
}

/// CURLOPT_OPENSOCKETFUNCTION: called with the address libcurl is about to connect to, at every connection
/// (redirects included); returning CURL_SOCKET_BAD refuses it.
typedef curl_socket_t (*sg_curl_open_socket_callback)(void *context, curlsocktype purpose, struct curl_sockaddr *address);

static inline CURLcode sg_curl_set_open_socket(CURL *handle, sg_curl_open_socket_callback callback) {
    return curl_easy_setopt(handle, CURLOPT_OPENSOCKETFUNCTION, callback);
}

static inline CURLcode sg_curl_get_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}

#endif
