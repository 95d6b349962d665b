// Header-only target: the format lives in include/devkit_heap_format.h.
