// libunwind (Debian libunwind-dev) for the heap recorder: local unwinding only.
#define UNW_LOCAL_ONLY
#include <libunwind.h>
