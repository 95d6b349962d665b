#if canImport(Glibc)
import Glibc
#endif

/// The process environment, read through `getenv`.
public enum Environment {
    /// The variable's value, or nil when it is unset.
    public static func value(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }

    /// The variable's value, or nil when it is unset or empty.
    public static func nonEmptyValue(_ name: String) -> String? {
        guard let value = value(name), !value.isEmpty else { return nil }
        return value
    }

    /// Sets the variable (`setenv`), or leaves a value already there when `overwrite` is
    /// false. For settings a C library reads only from the environment (libdebuginfod's
    /// `DEBUGINFOD_URLS` and `DEBUGINFOD_TIMEOUT`); call it before that library starts threads.
    public static func set(_ name: String, to value: String, overwrite: Bool = true) {
        setenv(name, value, overwrite ? 1 : 0)
    }

    /// Every `NAME=value` entry of the process environment (`environ`), in its order: the
    /// start of a child's environment.
    public static func entries() -> [String] {
        var entries: [String] = []
        var index = 0
        while let entry = environ[index] {
            entries.append(String(cString: entry))
            index += 1
        }
        return entries
    }
}
