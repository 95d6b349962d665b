import System
import ObjectFile
import Symbolication

// libFuzzer entry point; built with -parse-as-library, so no top-level code here.
// Every input goes through the ELF reader (and, for Mach-O input, the Mach-O one) (headers, sections, symbols, notes, debuglink)
// and the whole symbolizer (libdw over the same bytes, index build, lookups): any input
// may fail, none may crash, hang or read out of bounds.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let file = MappedFile(copying: UnsafeBufferPointer(start: data, count: size), path: "<fuzz>")
    if let elf = try? ELFFile(file) {
        _ = try? elf.symbols()
        _ = try? elf.buildID()
        _ = try? elf.debugLink()
        for section in elf.sections { _ = try? elf.contents(of: section) }
    }
    var options = SymbolicationOptions()
    options.debugDirectories = []  // never look at the disk for separate debug files
    if let image = try? ImageSymbolizer(file: file, options: options) {
        for address in stride(from: UInt64(0), to: 0x4000, by: 0x1f1) { _ = try? image.frames(at: address) }
    }
    // Mach-O: also the arm64 slice of a fat file (without --arch a fat file is refused).
    options.architecture = "arm64"
    if let image = try? ImageSymbolizer(file: file, options: options) {
        for address in stride(from: UInt64(0x1_0000_0000), to: 0x1_0000_4000, by: 0x1f1) { _ = try? image.frames(at: address) }
    }
    return 0
}
