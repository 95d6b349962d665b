// devkit's definition of `open` interposes the C library's for every shared library that
// calls it (the executable's symbols come first in the dynamic linker's search). Outside a
// guard it is `openat(AT_FDCWD, ...)`, the same system call; inside one it adds O_NONBLOCK
// (a FIFO's open returns at once), refuses non-regular files with ENXIO, and clears
// O_NONBLOCK again so reads behave as the caller expects.
#define _GNU_SOURCE
#include "OpenGuard.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <sys/stat.h>
#include <unistd.h>

static _Thread_local unsigned guard_depth;

void open_guard_enter(void) { guard_depth++; }

void open_guard_leave(void) {
    if (guard_depth > 0) guard_depth--;
}

int open(const char *path, int flags, ...) {
    mode_t mode = 0;
    if ((flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE) {
        va_list arguments;
        va_start(arguments, flags);
        mode = (mode_t)va_arg(arguments, int);
        va_end(arguments);
    }
    if (guard_depth == 0) return openat(AT_FDCWD, path, flags, mode);

    int fd = openat(AT_FDCWD, path, flags | O_NONBLOCK | O_CLOEXEC, mode);
    if (fd < 0) return fd;
    struct stat info;
    if (fstat(fd, &info) != 0 || !S_ISREG(info.st_mode)) {
        int error = S_ISDIR(info.st_mode) ? EISDIR : ENXIO;
        close(fd);
        errno = error;
        return -1;
    }
    if (!(flags & O_NONBLOCK)) {
        int current = fcntl(fd, F_GETFL);
        if (current >= 0) fcntl(fd, F_SETFL, current & ~O_NONBLOCK);
    }
    return fd;
}
