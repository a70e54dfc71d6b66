#include <zlib.h>

/* zlib's deflateInit2/inflateInit2 are macros, which Swift cannot call: these wrap them. A window of
   15 + 16 bits selects the gzip format; zlib then writes a header with no file name and a zero
   timestamp, so the same input always gives the same bytes. */
static inline int czlib_deflate_init_gzip(z_streamp stream, int level) {
    return deflateInit2(stream, level, Z_DEFLATED, 15 + 16, 9, Z_DEFAULT_STRATEGY);
}

static inline int czlib_inflate_init_gzip(z_streamp stream) {
    return inflateInit2(stream, 15 + 16);
}
