// One bounded HTTP GET over libcurl's easy interface, for showcased's upstream transport.
//
// C rather than Swift because curl_easy_setopt is variadic, which Swift cannot call. Everything that makes
// the fetch safe against a hostile upstream is decided here, in one place: no redirects, only http(s), gzip
// or identity asked for, decoded bytes counted and the transfer cut at the cap as it streams, an exact
// millisecond deadline, and a blocking wait in poll(2) rather than a busy loop.
#ifndef SHOWCASE_CCURL_H
#define SHOWCASE_CCURL_H

#include <stddef.h>

/// The outcome of showcase_http_get. Free with showcase_http_free.
typedef struct showcase_http_result {
    /// The HTTP status of the (only) response, 0 when none arrived.
    long status;
    /// libcurl's CURLcode; 0 is success.
    int curl_code;
    /// Non-zero when the decoded body would have exceeded max_bytes: the transfer was cut there.
    int overflow;
    /// Non-zero when libcurl's error was a timeout.
    int timed_out;
    /// Non-zero when the body's Content-Encoding could not be decoded.
    int bad_encoding;
    /// The 2xx body (decoded), malloc'd; NULL when empty or not 2xx.
    unsigned char *body;
    /// Bytes in body.
    size_t body_length;
    /// The Retry-After header's value, "" when absent.
    char retry_after[64];
    /// libcurl's error text, "" on success.
    char error[256];
} showcase_http_result;

/// GETs url within timeout_ms, keeping at most max_bytes of a 2xx body, sending accept as the whole Accept
/// header line ("Accept: application/json" for the lookup, image types for icons). Returns result->curl_code.
int showcase_http_get(const char *url, const char *user_agent, const char *accept, long timeout_ms,
                      size_t max_bytes, showcase_http_result *result);

/// Releases result->body.
void showcase_http_free(showcase_http_result *result);

#endif
