import Diagnostics
import ObjectFile
import System

/// The format-specific half of opening an image: what `ImageSymbolizer` needs, whether the
/// image is ELF or Mach-O.
struct LoadedImage {
    /// GNU build-id or Mach-O `LC_UUID`.
    var identifier: [UInt8]?
    /// The address the image is linked at (lowest `PT_LOAD`, or `__TEXT`).
    var imageBase: UInt64
    /// Address ranges of code; DWARF outside them is a linker tombstone.
    var codeRanges: [(UInt64, UInt64)]
    /// The separate file the DWARF came from (for cache validation), nil if none or the image.
    var debugFile: MappedFile?
    var debugInfoPath: String?
    /// The ELF image libdw reads: the file itself, its separate debug file, or an ELF built
    /// around a Mach-O file's `__DWARF` sections.
    var dwarfImage: MappedFile?
    /// Size of the line-table section (a bound on the number of rows).
    var lineTableSize: UInt64
    /// The image's own symbol table, and a stripped image's separate debug file's (else empty).
    var symbols: () throws(SymbolicationError) -> (image: [ELFSymbol], debug: [ELFSymbol])
    /// What went wrong finding the DWARF without stopping the image being used (a debuginfod
    /// server that did not answer): warnings naming the image.
    var warnings: [Diagnostic] = []
}
