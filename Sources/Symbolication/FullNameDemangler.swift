// libc directly (not through System), as in Demangler.swift: the results come from malloc.
internal import Glibc
internal import RuntimeDemangler
import System

/// Full Swift names as `swift-demangle` prints them, from the best source this process has
/// (`FullNameSource`), chosen once, at the first full name asked for: never at start-up.
///
/// The Swift runtime holds the whole demangler, but its C entry points print either full
/// names without sugar (`swift_demangle`) or the simplified form
/// (`_swift_backtrace_demangle`). The sugared full form needs its C++ entry point with an
/// options structure whose layout has no public header (`RuntimeDemangler` restates Swift
/// 6.3's), reachable only when the runtime is linked statically, as in a release devkit. So:
/// that entry point when compiled by Swift 6.3 and when, on two probe names, its outputs equal
/// the runtime's own C entry points' (a wrong layout shows there); else the toolchain's
/// `libswiftDemangle.so` beside the shared runtime (a debug build runs on a toolchain); else
/// `swift_demangle`, unsugared.
final class FullNameDemangler: Sendable {
    private typealias ToolchainDemangle = @convention(c) (UnsafePointer<CChar>?, UnsafeMutablePointer<CChar>?, Int) -> Int

    static let shared = FullNameDemangler()

    let source: FullNameSource
    private let toolchainDemangle: ToolchainDemangle?

    /// A specialization of a generic initializer over a dictionary: its simplified form
    /// (`specialized Dictionary.init(dictionaryLiteral:)`) depends on most of the switches.
    static let simplifiedProbe = "$sSD17dictionaryLiteralSDyxq_Gx_q_td_tcfCSS_SdTt0g5Tf4g_n"
    /// A generic specialization with a where clause and a labelled tuple but nothing to sugar:
    /// its full form equals `swift_demangle`'s.
    static let fullProbe = "$ss22__RawDictionaryStorageC4find_9hashValues10_HashTableV6BucketV6bucket_Sb5foundtx_SitSHRzlFSS_Tg5"

    private init() {
        if Self.runtimeAgreesWithItself() {
            source = .runtime
            toolchainDemangle = nil
        } else if let function = Self.toolchainLibraryFunction() {
            source = .toolchainLibrary
            toolchainDemangle = function
        } else {
            source = .unsugared
            toolchainDemangle = nil
        }
    }

    /// `text` (`length` bytes) as a full name, from malloc; nil when it does not demangle.
    func demangle(_ text: UnsafePointer<CChar>, length: Int) -> UnsafeMutablePointer<CChar>? {
        switch source {
        case .runtime:
            return devkit_runtime_demangle(text, length, devkit_swift_names_full)
        case .toolchainLibrary:
            guard let toolchainDemangle else { return nil }
            // The library takes a NUL-terminated name and returns the full length it needs.
            let needed = toolchainDemangle(text, nil, 0)
            guard needed > 0, let buffer = malloc(needed + 1)?.assumingMemoryBound(to: CChar.self) else { return nil }
            _ = toolchainDemangle(text, buffer, needed + 1)
            return buffer
        case .unsugared:
            return Demangler.unsugared(text, length: length)
        }
    }

    /// True when the runtime's C++ demangler is linked, this file was compiled for the runtime
    /// layout `RuntimeDemangler` states, and both forms made through it equal the runtime's
    /// own: the simplified probe `_swift_backtrace_demangle`'s, the full probe `swift_demangle`'s.
    private static func runtimeAgreesWithItself() -> Bool {
        #if compiler(>=6.3) && !compiler(>=6.4)
        guard devkit_runtime_demangler_is_linked() != 0 else { return false }
        return same(simplifiedProbe, devkit_swift_names_simplified, as: Demangler.simplified(_:length:))
            && same(fullProbe, devkit_swift_names_full, as: Demangler.unsugared(_:length:))
        #else
        return false
        #endif
    }

    private static func same(_ probe: String, _ form: devkit_swift_names,
                             as reference: (UnsafePointer<CChar>, Int) -> UnsafeMutablePointer<CChar>?) -> Bool {
        probe.withCString { text in
            let length = strlen(text)
            guard let ours = devkit_runtime_demangle(text, length, form) else { return false }
            defer { free(ours) }
            guard let theirs = reference(text, length) else { return false }
            defer { free(theirs) }
            return strcmp(ours, theirs) == 0
        }
    }

    /// `swift_demangle_getDemangledName` of the `libswiftDemangle.so` in the toolchain whose
    /// shared Swift runtime this process loaded (`usr/lib/swift/linux/libswiftCore.so` →
    /// `usr/lib/libswiftDemangle.so`); nil with a static runtime or no such library.
    private static func toolchainLibraryFunction() -> ToolchainDemangle? {
        guard let file = devkit_shared_swift_runtime_path() else { return nil }
        let runtimePath = String(cString: file)
        guard runtimePath.hasSuffix("/swift/linux/libswiftCore.so") else { return nil }
        let libraryDirectory = runtimePath.dropLast("/swift/linux/libswiftCore.so".count)
        guard let library = try? DynamicLibrary(firstOf: [libraryDirectory + "/libswiftDemangle.so"]),
              let symbol = library.symbol("swift_demangle_getDemangledName") else { return nil }
        return unsafeBitCast(symbol, to: ToolchainDemangle.self)
    }
}
