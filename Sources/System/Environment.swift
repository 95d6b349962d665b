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
}
