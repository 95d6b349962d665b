// libc directly (not through System): the demanglers' C entry points allocate with malloc.
internal import Glibc

/// The Swift runtime's demangler, resolved by the linker (see `Demangler.init`).
@_silgen_name("swift_demangle")
private func linkedSwiftDemangle(
    _ mangledName: UnsafePointer<CChar>?, _ length: Int, _ outputBuffer: UnsafeMutablePointer<CChar>?,
    _ outputLength: UnsafeMutablePointer<Int>?, _ flags: UInt32
) -> UnsafeMutablePointer<CChar>?

/// Demangles Swift and C++ symbol names with the demanglers already in the process: the Swift
/// runtime's `swift_demangle` (exported by libswiftCore, which every Swift program on Linux
/// loads, or links statically) and the C++ ABI's `__cxa_demangle` (libstdc++, found with
/// `dlsym` once); a name neither understands is returned unchanged.
public struct Demangler: Sendable {
    private typealias SwiftDemangle = @convention(c) (
        UnsafePointer<CChar>?, Int, UnsafeMutablePointer<CChar>?, UnsafeMutablePointer<Int>?, UInt32
    ) -> UnsafeMutablePointer<CChar>?
    private typealias CXADemangle = @convention(c) (
        UnsafePointer<CChar>?, UnsafeMutablePointer<CChar>?, UnsafeMutablePointer<Int>?, UnsafeMutablePointer<Int32>?
    ) -> UnsafeMutablePointer<CChar>?

    private let swiftDemangle: SwiftDemangle?
    private let cxaDemangle: CXADemangle?

    /// Looks the two demanglers up in the running process.
    public init() {
        let process = dlopen(nil, RTLD_NOW)
        // Linked directly, not looked up: a release build links the Swift runtime statically
        // (--static-swift-stdlib), and then the runtime's symbols are not in the dynamic
        // symbol table that dlsym searches.
        swiftDemangle = linkedSwiftDemangle
        cxaDemangle = dlsym(process, "__cxa_demangle").map { unsafeBitCast($0, to: CXADemangle.self) }
    }

    /// True when the Swift runtime's demangler was found.
    public var canDemangleSwift: Bool { swiftDemangle != nil }
    /// True when the C++ ABI demangler was found.
    public var canDemangleCPlusPlus: Bool { cxaDemangle != nil }

    /// The demangled form of `name`, or `name` itself if it is not a Swift or Itanium C++ name.
    public func demangle(_ name: String) -> String {
        if Self.looksLikeSwift(name), let swiftDemangle {
            return name.withCString { text in
                guard let result = swiftDemangle(text, strlen(text), nil, nil, 0) else { return name }
                defer { free(result) }
                return String(cString: result)
            }
        }
        if name.hasPrefix("_Z"), let cxaDemangle {
            return name.withCString { text in
                var status: Int32 = 0
                guard let result = cxaDemangle(text, nil, nil, &status), status == 0 else { return name }
                defer { free(result) }
                return String(cString: result)
            }
        }
        return name
    }

    /// Swift 4+ manglings (`$s`, `$S`, `$e`, with or without a leading underscore) and Swift 3's `_T0`.
    static func looksLikeSwift(_ name: String) -> Bool {
        let utf8 = name.utf8
        var rest = Substring(name)
        if utf8.first == UInt8(ascii: "_") { rest = rest.dropFirst() }
        return rest.hasPrefix("$s") || rest.hasPrefix("$S") || rest.hasPrefix("$e") || name.hasPrefix("_T0")
    }
}
