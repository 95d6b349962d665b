import ElfUtils
import System

/// How to open an image for symbolication.
public struct SymbolicationOptions: Sendable {
    /// Demangle Swift and C++ names (default true).
    public var demangle = true
    /// The form of demangled Swift names (`--names`): full, as llvm-symbolizer and
    /// `swift-demangle` print them, unless asked for Xcode's short form.
    public var names: NameForm = .full
    /// Extra directories searched for separate debug files (`--debug-dir`), before `/usr/lib/debug`.
    public var debugDirectories: [String] = []
    /// The build-id or UUID the caller expects (hex, dashes allowed). A different or missing
    /// one is refused with `.identifierMismatch` unless `allowIdentifierMismatch`.
    public var expectedIdentifier: String?
    /// Where per-image indexes are cached (`<directory>/<build-id>`); nil: no cache.
    /// `defaultCacheDirectory` is where devkit keeps them.
    public var cacheDirectory: String?
    /// Symbolicate anyway when the identifier differs; frames are then marked unverified
    /// (`ImageSymbolizer.isVerified` is false).
    public var allowIdentifierMismatch = false
    /// The slice of a fat Mach-O file: `arm64`, `arm64e`, `x86_64`, `armv7`, `i386`, … Needed
    /// when the file has more than one.
    public var architecture: String?
    /// Asks debuginfod servers for an ELF image's debug file when none is found here (by
    /// build-id); nil: never (no servers, or `--offline`). One client for a whole run, so its
    /// deadline bounds every fetch together.
    public var debuginfod: DebuginfodClient?

    public init() {}

    /// `$XDG_CACHE_HOME/devkit/symbols`, else `$HOME/.cache/devkit/symbols`; nil without either.
    /// A relative `XDG_CACHE_HOME` is ignored, as the XDG specification asks.
    public static var defaultCacheDirectory: String? {
        if let xdg = Environment.value("XDG_CACHE_HOME"), xdg.hasPrefix("/") { return xdg + "/devkit/symbols" }
        if let home = Environment.nonEmptyValue("HOME") { return home + "/.cache/devkit/symbols" }
        return nil
    }
}
