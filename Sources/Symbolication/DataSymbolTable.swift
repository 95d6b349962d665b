import System
import ObjectFile

/// Names data addresses of one image from its ELF symbol table: global objects, and the
/// type metadata records of Swift classes (`type metadata for MyApp.Node`), which heap
/// analysis uses to name the class of an allocated instance.
///
/// Separate from `ImageSymbolizer`'s index (code addresses, cached on disk): data lookups
/// are rare and need only the symbol table, read when the table is made.
public struct DataSymbolTable: Sendable {
    private struct Entry: Sendable {
        var start: UInt64
        var end: UInt64
        var name: String
    }

    /// Defined `STT_OBJECT` symbols by start; among those starting at one address the
    /// smallest comes last, so an alias at an address point (`$s4main4NodeCN`) wins over
    /// the record around it.
    private let entries: [Entry]
    private let demangler: Demangler

    /// Reads the symbol table of the ELF file at `path`; names are demangled, Swift names in
    /// `names`' form.
    public init(path: String, names: NameForm = .full) throws(SymbolicationError) {
        let file: MappedFile
        do { file = try MappedFile(path: path) } catch {
            throw SymbolicationError(kind: .unreadable, path: path, message: error.reason)
        }
        guard ELFFile.hasMagic(file.bytes) else {
            throw SymbolicationError(kind: .unsupportedFormat, path: path, offset: 0, message: "not an ELF file")
        }
        let symbols: [ELFSymbol]
        do { symbols = try ELFFile(file).symbols() } catch { throw .malformed(error, path: path) }
        let objectType: UInt8 = 1  // STT_OBJECT
        let demangler = Demangler(names: names)
        var entries: [Entry] = []
        for symbol in symbols where symbol.type == objectType && symbol.sectionIndex != 0 && !symbol.name.isEmpty {
            // A zero-size object covers only its own address.
            entries.append(Entry(start: symbol.value, end: symbol.value &+ max(symbol.size, 1), name: symbol.name))
        }
        entries.sort { ($0.start, $1.end) < ($1.start, $0.end) }
        self.entries = entries
        self.demangler = demangler
    }

    /// The demangled name of the data object at or around `fileAddress`, nil when none covers it.
    public func name(at fileAddress: UInt64) -> String? {
        let after = SortedSearch.upperBound(entries, in: 0..<entries.count, of: fileAddress) { $0.start }
        guard after > 0, fileAddress < entries[after - 1].end else { return nil }
        return demangler.demangle(entries[after - 1].name)
    }
}
