#if canImport(Glibc)
import Glibc
#endif

/// A shared library opened at run time (`dlopen`) rather than named in the executable: one
/// that only some commands need and that costs every process to load at start-up (libzip
/// brings libcrypto, whose loading and initialisation took a quarter of `devkit --version`'s
/// instructions). Opened once and never closed: the functions taken from it stay valid.
public struct DynamicLibrary: @unchecked Sendable {
    private let handle: UnsafeMutableRawPointer

    /// Opens the first of `names` (sonames, searched as the dynamic loader searches) that
    /// loads, binding all its symbols now (`RTLD_NOW | RTLD_LOCAL`). The error is the
    /// loader's message (`dlerror`) for the last name tried.
    public init(firstOf names: [String]) throws(FileIOError) {
        var message = "no library named"
        for name in names {
            if let handle = dlopen(name, RTLD_NOW | RTLD_LOCAL) {
                self.handle = handle
                return
            }
            message = dlerror().map { String(cString: $0) } ?? "\(name): cannot be loaded"
        }
        throw FileIOError(path: names.joined(separator: " or "), reason: message)
    }

    /// The address of `name` (`dlsym`), or nil when the library has no such symbol.
    public func symbol(_ name: String) -> UnsafeMutableRawPointer? {
        dlsym(handle, name)
    }
}
