// libzip's types and constants (Debian libzip-dev) for reading .ipa archives. Imported only by
// Provisioning/Bundle/Internals/ZipCalls.swift, which takes the functions from libzip.so with
// dlopen at first use, so nothing links against libzip.
#include <zip.h>
