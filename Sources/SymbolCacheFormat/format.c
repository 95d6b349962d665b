// Header-only target: the format lives in include/devkit_symbol_cache.h.
