// libdebuginfod, from Debian's libdebuginfod1: every function ElfUtils' DebuginfodCalls
// calls. Opened only when `devkit symbolicate` has to ask a server (DEBUGINFOD_URLS or
// --debuginfod, and a build-id with no debug file here): it brings libcurl with it.
#include "LazyLibrary.h"

#include <elfutils/debuginfod.h>

#define LIBDEBUGINFOD_FUNCTIONS(X, V)                                                                      \
    X(debuginfod_client *, debuginfod_begin, (void), ())                                                  \
    V(debuginfod_end, (debuginfod_client * client), (client))                                             \
    X(int, debuginfod_find_debuginfo, (debuginfod_client * client, const unsigned char *build_id, int build_id_len, char **path), (client, build_id, build_id_len, path)) \
    X(int, debuginfod_find_executable, (debuginfod_client * client, const unsigned char *build_id, int build_id_len, char **path), (client, build_id, build_id_len, path)) \
    V(debuginfod_set_progressfn, (debuginfod_client * client, debuginfod_progressfn_t fn), (client, fn))  \
    V(debuginfod_set_user_data, (debuginfod_client * client, void *value), (client, value))               \
    X(void *, debuginfod_get_user_data, (debuginfod_client * client), (client))

LAZY_LIBRARY(libdebuginfod, "libdebuginfod.so.1", "libdebuginfod1", LIBDEBUGINFOD_FUNCTIONS);

#define LIBDEBUGINFOD_FORWARD(result, name, parameters, arguments) LAZY_FORWARD(libdebuginfod, result, name, parameters, arguments)
#define LIBDEBUGINFOD_FORWARD_VOID(name, parameters, arguments) LAZY_FORWARD_VOID(libdebuginfod, name, parameters, arguments)
LIBDEBUGINFOD_FUNCTIONS(LIBDEBUGINFOD_FORWARD, LIBDEBUGINFOD_FORWARD_VOID)
