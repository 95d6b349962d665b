// libc directly (not through System): the demanglers' C entry points allocate with malloc.
internal import Glibc

/// The Swift runtime's demangler, resolved by the linker (see `Demangler.init`): full names
/// without sugar.
@_silgen_name("swift_demangle")
private func linkedSwiftDemangle(
    _ mangledName: UnsafePointer<CChar>?, _ length: Int, _ outputBuffer: UnsafeMutablePointer<CChar>?,
    _ outputLength: UnsafeMutablePointer<Int>?, _ flags: UInt32
) -> UnsafeMutablePointer<CChar>?

/// The Swift runtime's demangler as its backtracer calls it: the simplified form, with the
/// same options as `swift-demangle --simplified`. Exported by the shared runtime and linked
/// from the static one alike.
@_silgen_name("_swift_backtrace_demangle")
private func linkedSimplifiedDemangle(
    _ mangledName: UnsafePointer<CChar>?, _ length: Int, _ outputBuffer: UnsafeMutablePointer<CChar>?,
    _ outputLength: UnsafeMutablePointer<Int>?
) -> UnsafeMutablePointer<CChar>?

/// The C++ ABI's demangler, resolved by the linker: the release links libstdc++ statically
/// (Scripts/link/libstdc++.so), and then `__cxa_demangle` is not in the dynamic symbol table,
/// so looking it up with `dlsym` found nothing and C++ names stayed mangled.
@_silgen_name("__cxa_demangle")
private func linkedCXADemangle(
    _ mangledName: UnsafePointer<CChar>?, _ outputBuffer: UnsafeMutablePointer<CChar>?,
    _ length: UnsafeMutablePointer<Int>?, _ status: UnsafeMutablePointer<Int32>?
) -> UnsafeMutablePointer<CChar>?

/// Demangles Swift and C++ symbol names with the demanglers already in the process: the Swift
/// runtime's (exported by libswiftCore, which every Swift program on Linux loads, or links
/// statically) and the C++ ABI's `__cxa_demangle` (libstdc++, shared or static); a
/// name neither understands is returned unchanged. Swift names come in `names`' form: short
/// from `_swift_backtrace_demangle`, full from `FullNameDemangler` (see `fullNameSource`).
public struct Demangler: Sendable {
    private typealias SwiftDemangle = @convention(c) (
        UnsafePointer<CChar>?, Int, UnsafeMutablePointer<CChar>?, UnsafeMutablePointer<Int>?, UInt32
    ) -> UnsafeMutablePointer<CChar>?
    private typealias CXADemangle = @convention(c) (
        UnsafePointer<CChar>?, UnsafeMutablePointer<CChar>?, UnsafeMutablePointer<Int>?, UnsafeMutablePointer<Int32>?
    ) -> UnsafeMutablePointer<CChar>?

    /// The form of Swift names.
    public let names: NameForm
    private let swiftDemangle: SwiftDemangle?
    private let cxaDemangle: CXADemangle?

    /// Looks the demanglers up in the running process.
    public init(names: NameForm = .full) {
        self.names = names
        // Linked directly, not looked up: a release build links the Swift runtime statically
        // (--static-swift-stdlib), and then the runtime's symbols are not in the dynamic
        // symbol table that dlsym searches.
        swiftDemangle = linkedSwiftDemangle
        cxaDemangle = linkedCXADemangle
    }

    /// True when the Swift runtime's demangler was found.
    public var canDemangleSwift: Bool { swiftDemangle != nil }
    /// True when the C++ ABI demangler was found.
    public var canDemangleCPlusPlus: Bool { cxaDemangle != nil }

    /// Where full Swift names come from in this process; `.unsugared` means they lack the sugar
    /// `swift-demangle` prints.
    public static var fullNameSource: FullNameSource { FullNameDemangler.shared.source }

    /// The demangled form of `name`, or `name` itself if it is not a Swift or Itanium C++ name.
    public func demangle(_ name: String) -> String {
        if Self.looksLikeSwift(name) {
            return name.withCString { text in
                let length = strlen(text)
                let result = switch names {
                case .short: linkedSimplifiedDemangle(text, length, nil, nil)
                case .full: FullNameDemangler.shared.demangle(text, length: length)
                }
                guard let result else { return name }
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

    /// The runtime's simplified form of a Swift name (`FullNameDemangler` checks its own
    /// against it); nil when it does not demangle.
    static func simplified(_ text: UnsafePointer<CChar>, length: Int) -> UnsafeMutablePointer<CChar>? {
        linkedSimplifiedDemangle(text, length, nil, nil)
    }

    /// The runtime's `swift_demangle`: full names without sugar.
    static func unsugared(_ text: UnsafePointer<CChar>, length: Int) -> UnsafeMutablePointer<CChar>? {
        linkedSwiftDemangle(text, length, nil, nil, 0)
    }

    /// Swift 4+ manglings (`$s`, `$S`, `$e`, with or without a leading underscore) and Swift 3's `_T0`.
    static func looksLikeSwift(_ name: String) -> Bool {
        // On the UTF-8 bytes: Substring.hasPrefix's generic path was 7 % of a warm
        // `symbolicate --binary` over a Swift binary, which asks once per name.
        if let answer = name.utf8.withContiguousStorageIfAvailable(looksLikeSwift(bytes:)) { return answer }
        return Array(name.utf8.prefix(4)).withUnsafeBufferPointer(looksLikeSwift(bytes:))
    }

    /// `looksLikeSwift(_:)` on a name's UTF-8 bytes.
    static func looksLikeSwift(bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let start = bytes.first == UInt8(ascii: "_") ? 1 : 0
        if bytes.count >= start + 2, bytes[start] == UInt8(ascii: "$"),
           [UInt8(ascii: "s"), UInt8(ascii: "S"), UInt8(ascii: "e")].contains(bytes[start + 1]) {
            return true
        }
        return bytes.count >= 3 && bytes[0] == UInt8(ascii: "_") && bytes[1] == UInt8(ascii: "T") && bytes[2] == UInt8(ascii: "0")
    }
}
