#define _GNU_SOURCE
#include "LazyLibrary.h"
#include "LazyLibraries.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static pthread_mutex_t load_lock = PTHREAD_MUTEX_INITIALIZER;

static _Noreturn void fail(const struct lazy_library *library, const char *reason) {
    fprintf(stderr, "devkit: cannot load %s (%s); install %s\n", library->soname,
            reason ? reason : "unknown reason", library->package);
    exit(2);
}

void lazy_library_load(struct lazy_library *library) {
    pthread_mutex_lock(&load_lock);
    if (!atomic_load_explicit(&library->ready, memory_order_relaxed)) {
        // dlsym on the handle searches the library itself before the process, so a function
        // resolves to the library's definition, never back to its forwarder here. RTLD_LAZY:
        // the library's (and ICU's) own calls are bound when first made, not all at load.
        void *handle = dlopen(library->soname, RTLD_LAZY | RTLD_LOCAL);
        if (!handle) fail(library, dlerror());
        for (unsigned i = 0; i < library->count; i++) {
            void *function = dlsym(handle, library->names[i]);
            if (!function) fail(library, dlerror());
            library->functions[i] = function;
        }
        atomic_store_explicit(&library->ready, 1, memory_order_release);
    }
    pthread_mutex_unlock(&load_lock);
}

bool lazy_library_is_loaded(const char *soname) {
    void *handle = dlopen(soname, RTLD_LAZY | RTLD_NOLOAD);
    if (handle) dlclose(handle);
    return handle != NULL;
}
