#ifndef DEVKIT_OPEN_GUARD_H
#define DEVKIT_OPEN_GUARD_H

/// While the calling thread is inside a guard, every `open` made through the C library's
/// `open` symbol (libdw's and libelf's included) refuses anything but a regular file without
/// blocking: libdwfl opens paths a core dump names (NT_FILE notes, the link map) itself,
/// outside any callback devkit could check, and a FIFO or a terminal there would block it.
/// Guards nest; outside one, `open` behaves exactly as the C library's.
void open_guard_enter(void);
void open_guard_leave(void);

#endif
