/// Where `Demangler` takes full Swift names from (`Demangler.fullNameSource`), best first.
public enum FullNameSource: String, Sendable {
    /// The Swift runtime's demangler, linked into devkit, called with `swift-demangle`'s
    /// options: a release build, whose Swift runtime is linked statically.
    case runtime
    /// The toolchain's `libswiftDemangle.so` beside the shared Swift runtime this process
    /// loaded (`swift_demangle_getDemangledName`): a debug build, which runs on a toolchain.
    case toolchainLibrary
    /// The runtime's `swift_demangle`: full names without sugar (`Swift.Array<Swift.Int>`,
    /// not `[Swift.Int]`), when neither of the others is there.
    case unsugared
}
