// libzip (Debian libzip-dev) for reading .ipa archives in memory. Imported only by
// Provisioning/Bundle/Internals/ZipCalls.swift.
#include <zip.h>
