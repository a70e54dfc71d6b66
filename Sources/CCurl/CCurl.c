#include "CCurl.h"

#include <curl/curl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

struct transfer {
    CURL *easy;
    size_t max_bytes;
    size_t capacity;
    showcase_http_result *result;
};

static pthread_once_t global_once = PTHREAD_ONCE_INIT;
static void global_init(void) { curl_global_init(CURL_GLOBAL_DEFAULT); }

static int is_success(long status) { return status >= 200 && status < 300; }

// Body bytes, already decoded by libcurl (in chunks of at most CURL_MAX_WRITE_SIZE): counting here bounds
// memory after decompression. Returning less than given aborts the transfer (CURLE_WRITE_ERROR).
static size_t on_body(char *data, size_t size, size_t count, void *context) {
    struct transfer *t = context;
    size_t length = size * count;
    long status = 0;
    curl_easy_getinfo(t->easy, CURLINFO_RESPONSE_CODE, &status);
    t->result->status = status;
    if (!is_success(status)) return 0;  // a non-2xx body is never needed: stop reading it
    showcase_http_result *r = t->result;
    if (length > t->max_bytes - r->body_length) {
        r->overflow = 1;
        return 0;
    }
    if (r->body_length + length > t->capacity) {
        size_t capacity = t->capacity ? t->capacity : 16384;
        while (capacity < r->body_length + length) capacity *= 2;
        if (capacity > t->max_bytes) capacity = t->max_bytes;
        unsigned char *grown = realloc(r->body, capacity);
        if (!grown) return 0;
        r->body = grown;
        t->capacity = capacity;
    }
    memcpy(r->body + r->body_length, data, length);
    r->body_length += length;
    return length;
}

// Header lines: keeps Retry-After, and refuses an announced 2xx body over the cap before any of it arrives.
static size_t on_header(char *data, size_t size, size_t count, void *context) {
    struct transfer *t = context;
    size_t length = size * count;
    static const char name[] = "retry-after:";
    if (length > sizeof name - 1 && strncasecmp(data, name, sizeof name - 1) == 0) {
        const char *value = data + sizeof name - 1;
        size_t remaining = length - (sizeof name - 1);
        while (remaining > 0 && (*value == ' ' || *value == '\t')) value++, remaining--;
        while (remaining > 0 && (value[remaining - 1] == '\r' || value[remaining - 1] == '\n' ||
                                 value[remaining - 1] == ' '))
            remaining--;
        if (remaining >= sizeof t->result->retry_after) remaining = sizeof t->result->retry_after - 1;
        memcpy(t->result->retry_after, value, remaining);
        t->result->retry_after[remaining] = 0;
    }
    if (length == 2 && data[0] == '\r') {  // end of the header block
        long status = 0;
        curl_off_t announced = -1;
        curl_easy_getinfo(t->easy, CURLINFO_RESPONSE_CODE, &status);
        curl_easy_getinfo(t->easy, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &announced);
        t->result->status = status;
        // Content-Length counts the bytes on the wire (compressed, if gzip): more than the cap there is
        // refused at once; a smaller compressed body is still counted after decoding, in on_body.
        if (is_success(status) && announced > 0 && (curl_off_t)t->max_bytes < announced) {
            t->result->overflow = 1;
            return 0;
        }
    }
    return length;
}

int showcase_http_get(const char *url, const char *user_agent, const char *accept, long timeout_ms,
                      size_t max_bytes, showcase_http_result *result) {
    memset(result, 0, sizeof *result);
    pthread_once(&global_once, global_init);
    CURL *easy = curl_easy_init();
    if (!easy) {
        result->curl_code = CURLE_FAILED_INIT;
        strcpy(result->error, "libcurl could not start (out of memory)");
        return result->curl_code;
    }
    struct transfer t = {.easy = easy, .max_bytes = max_bytes, .capacity = 0, .result = result};
    struct curl_slist *headers = curl_slist_append(NULL, accept);
    char error[CURL_ERROR_SIZE] = {0};
    curl_easy_setopt(easy, CURLOPT_URL, url);
    curl_easy_setopt(easy, CURLOPT_USERAGENT, user_agent);
    curl_easy_setopt(easy, CURLOPT_HTTPHEADER, headers);
    curl_easy_setopt(easy, CURLOPT_ACCEPT_ENCODING, "gzip");
    curl_easy_setopt(easy, CURLOPT_FOLLOWLOCATION, 0L);
#if LIBCURL_VERSION_NUM >= 0x075500
    curl_easy_setopt(easy, CURLOPT_PROTOCOLS_STR, "http,https");
#else
    curl_easy_setopt(easy, CURLOPT_PROTOCOLS, (long)(CURLPROTO_HTTP | CURLPROTO_HTTPS));
#endif
    curl_easy_setopt(easy, CURLOPT_TIMEOUT_MS, timeout_ms);
    curl_easy_setopt(easy, CURLOPT_CONNECTTIMEOUT_MS, timeout_ms);
    curl_easy_setopt(easy, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(easy, CURLOPT_WRITEFUNCTION, on_body);
    curl_easy_setopt(easy, CURLOPT_WRITEDATA, &t);
    curl_easy_setopt(easy, CURLOPT_HEADERFUNCTION, on_header);
    curl_easy_setopt(easy, CURLOPT_HEADERDATA, &t);
    curl_easy_setopt(easy, CURLOPT_ERRORBUFFER, error);
    CURLcode code = curl_easy_perform(easy);
    long status = 0;
    if (curl_easy_getinfo(easy, CURLINFO_RESPONSE_CODE, &status) == CURLE_OK && status != 0) result->status = status;
    result->curl_code = (int)code;
    result->timed_out = code == CURLE_OPERATION_TIMEDOUT;
    result->bad_encoding = code == CURLE_BAD_CONTENT_ENCODING;
    if (code != CURLE_OK) {
        const char *text = error[0] ? error : curl_easy_strerror(code);
        strncpy(result->error, text, sizeof result->error - 1);
    }
    curl_slist_free_all(headers);
    curl_easy_cleanup(easy);
    return result->curl_code;
}

void showcase_http_free(showcase_http_result *result) {
    free(result->body);
    result->body = NULL;
    result->body_length = 0;
}
