/// One symbol a Mach-O image takes from another image at load time (`MachOImports.read`).
public struct MachOImport: Sendable, Hashable {
    /// Where the linker recorded the import.
    public enum Origin: Sendable, Hashable {
        /// An undefined external `LC_SYMTAB` entry (`N_UNDF | N_EXT`).
        case symbolTable
        /// The imports table of `LC_DYLD_CHAINED_FIXUPS`.
        case chainedFixups
        /// A `BIND_OPCODE_SET_SYMBOL_TRAILING_FLAGS_IMM` of `LC_DYLD_INFO(_ONLY)`'s bind, weak
        /// bind or lazy bind stream.
        case bindInfo
    }

    /// The symbol as the image spells it: C names with their leading underscore, Objective-C
    /// classes as `_OBJC_CLASS_$_Name`.
    public var name: String
    /// The install name of the dylib the import binds to (`/usr/lib/libSystem.B.dylib`); nil
    /// for flat-namespace, main-executable and self lookups, or an ordinal with no dylib.
    public var library: String?
    public var origin: Origin

    public init(name: String, library: String?, origin: Origin) {
        self.name = name
        self.library = library
        self.origin = origin
    }
}
