// zstd, from Debian's libzstd1: what HeapAnalysis calls to read compressed heap recordings
// (format version 4), and the compression its tests write them with. It needs libc alone.
#include "LazyLibrary.h"

#include <zstd.h>

#define ZSTD_FUNCTIONS(X, V)                                                                                     \
    X(ZSTD_DCtx *, ZSTD_createDCtx, (void), ())                                                                  \
    X(size_t, ZSTD_freeDCtx, (ZSTD_DCtx *dctx), (dctx))                                                          \
    X(size_t, ZSTD_DCtx_setParameter, (ZSTD_DCtx *dctx, ZSTD_dParameter param, int value), (dctx, param, value)) \
    X(size_t, ZSTD_decompressStream, (ZSTD_DStream *zds, ZSTD_outBuffer *output, ZSTD_inBuffer *input), (zds, output, input)) \
    X(ZSTD_CCtx *, ZSTD_createCCtx, (void), ())                                                                  \
    X(size_t, ZSTD_freeCCtx, (ZSTD_CCtx *cctx), (cctx))                                                          \
    X(size_t, ZSTD_CCtx_setParameter, (ZSTD_CCtx *cctx, ZSTD_cParameter param, int value), (cctx, param, value)) \
    X(size_t, ZSTD_compressStream2, (ZSTD_CCtx *cctx, ZSTD_outBuffer *output, ZSTD_inBuffer *input, ZSTD_EndDirective endOp), (cctx, output, input, endOp)) \
    X(size_t, ZSTD_compressBound, (size_t srcSize), (srcSize))                                                   \
    X(unsigned, ZSTD_isError, (size_t code), (code))                                                             \
    X(const char *, ZSTD_getErrorName, (size_t code), (code))

LAZY_LIBRARY(zstd, "libzstd.so.1", "libzstd1", ZSTD_FUNCTIONS);

#define ZSTD_FORWARD(result, name, parameters, arguments) LAZY_FORWARD(zstd, result, name, parameters, arguments)
#define ZSTD_FORWARD_VOID(name, parameters, arguments) LAZY_FORWARD_VOID(zstd, name, parameters, arguments)
ZSTD_FUNCTIONS(ZSTD_FORWARD, ZSTD_FORWARD_VOID)
