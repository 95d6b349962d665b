// A library that workload.c loads with dlopen, leaks from, and closes.
// Built by HeapRecorderTests with: cc -g -O1 -shared -fPIC plugin.c -o libplugin.so
#include <stdlib.h>

// Exported, so the compiler cannot drop the stores (and with them the mallocs).
void *plugin_kept[6];

__attribute__((noinline)) void plugin_leak(void) {
    for (int i = 0; i < 6; i++) plugin_kept[i] = malloc(667);
}
