#ifndef SG_CZLIB_SHIM_H
#define SG_CZLIB_SHIM_H

// zlib, for the web app's files served gzip-compressed. deflateInit2 is a macro, which Swift cannot call.
#include <zlib.h>

static inline int sg_deflate_init_gzip(z_streamp stream, int level) {
    // 15 window bits + 16: a gzip header and trailer rather than zlib's.
    return deflateInit2(stream, level, Z_DEFLATED, 15 + 16, 9, Z_DEFAULT_STRATEGY);
}

#endif
