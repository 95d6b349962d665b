import BinaryReading
import Diagnostics
import ElfUtils
import FrameModel
import System
import ObjectFile
import Synchronization

/// Symbolicates addresses of one image (executable or shared library).
///
/// Opening reads the object file, finds its DWARF (in the file, or a separate debug file by
/// build-id or `.gnu_debuglink`), checks the identity the caller expects, and builds an
/// `AddressIndex` once; every lookup after that is a few binary searches. Safe to share
/// between threads.
///
/// ```swift
/// let image = try ImageSymbolizer(path: "/usr/bin/python3.11d")
/// for frame in try image.frames(at: 0x4a3b10) { print(frame.function ?? "??", frame.line) }
/// ```
public final class ImageSymbolizer: Sendable {
    /// The image as given.
    public let path: String
    /// The file the DWARF was read from (the image or its separate debug file); nil without DWARF.
    public let debugInfoPath: String?
    /// The image's GNU build-id (lowercase hex), if it has one.
    public let identifier: String?
    /// False when the caller's expected identifier differed and `allowIdentifierMismatch` was set.
    public let isVerified: Bool
    /// The lowest `PT_LOAD` address: a runtime address minus the load address plus this is a
    /// file address.
    public let imageBase: UInt64
    /// How the index was obtained (and, once a lookup found a cache block damaged, that it
    /// was rebuilt).
    public var statistics: Statistics {
        var statistics = openedStatistics
        if let note = replacement.withLock({ $0?.note }) {
            statistics.cacheHit = false
            statistics.cacheNote = note
        }
        return statistics
    }
    /// Problems that left the image usable but poorer (a debuginfod server that did not give
    /// the debug file: symbol-table names only), each naming the image, for the caller to show.
    public let warnings: [Diagnostic]

    public struct Statistics: Sendable {
        /// Seconds spent reading DWARF and building (or loading) the index.
        public var indexSeconds: Double
        public var lineRows: Int
        public var subroutines: Int
        public var symbols: Int
        /// True when the index came from the on-disk cache.
        public var cacheHit: Bool
        /// What happened with the cache, for `--stats`: "cache hit", "cache miss",
        /// "cache rebuilt (checksum mismatch)", "no cache".
        public var cacheNote: String
    }

    private let openedStatistics: Statistics
    /// The index opened: from the cache, whose blocks are checked as lookups first read them,
    /// or built.
    private let opened: ImageIndex
    /// Set when a lookup found a block of `opened` damaged: the index built again from the
    /// DWARF (or why it could not be), which every lookup uses from then on, and the note for
    /// `statistics`. The lock also keeps two threads from rebuilding at once.
    private let replacement = Mutex<(index: Result<ImageIndex, SymbolicationError>, note: String)?>(nil)
    private let isReplaced = Atomic<Bool>(false)
    /// What rebuilding needs: the image, the options, the identity the index must have and
    /// where the cache is.
    private let file: MappedFile
    private let options: SymbolicationOptions
    private let identity: IndexFile.Identity
    private let cachePath: String?
    private let demangler: Demangler?

    public convenience init(path: String, options: SymbolicationOptions = SymbolicationOptions()) throws(SymbolicationError) {
        let started = MonotonicClock.seconds()
        let file: MappedFile
        do { file = try MappedFile(path: ImageLoader.resolvedPath(path)) } catch {
            throw SymbolicationError(kind: .unreadable, path: path, message: error.reason)
        }
        try self.init(file: file, options: options, started: started)
    }

    /// Symbolicates an image already in memory (`file.path` names it in errors and is where
    /// a debuglink is looked for).
    public convenience init(file: MappedFile, options: SymbolicationOptions = SymbolicationOptions()) throws(SymbolicationError) {
        try self.init(file: file, options: options, started: MonotonicClock.seconds())
    }

    private init(file: MappedFile, options: SymbolicationOptions, started: Double) throws(SymbolicationError) {
        let path = file.path
        self.path = path
        let image = try ImageLoader.load(file, options: options)
        identifier = image.identifier.map(hexString)
        isVerified = try Self.checkIdentity(identifier, options: options, path: path)
        imageBase = image.imageBase
        debugInfoPath = image.debugInfoPath
        warnings = image.warnings

        let identity = IndexFile.Identity(
            identifier: Array((image.identifier ?? []).prefix(64)), imageSize: UInt64(file.bytes.count), imageModified: file.modificationTime,
            debugSize: UInt64(image.debugFile?.bytes.count ?? 0), debugModified: image.debugFile?.modificationTime ?? 0)
        // The cache is keyed by build-id or UUID; an image without one is indexed every time.
        let hexID = image.identifier.map(hexString)
        let cachePath = options.cacheDirectory.flatMap { directory in hexID.map { "\(directory)/\($0)" } }
        var cacheNote = "no cache"
        var loaded: AddressIndex?
        if let cachePath {
            if let cached = try? MappedFile(path: cachePath) {
                do {
                    loaded = try IndexFile.open(cache: cached, expecting: identity)
                    cacheNote = "cache hit"
                } catch {
                    cacheNote = "cache rebuilt (\(error.reason))"
                }
            } else {
                cacheNote = "cache miss"
            }
        }
        let index: AddressIndex
        if let loaded {
            index = loaded
        } else {
            index = try Self.buildIndex(image, identity: identity)
            if let note = Self.writeCache(index, to: cachePath, options: options) { cacheNote += note }
        }
        self.file = file
        self.options = options
        self.identity = identity
        self.cachePath = cachePath
        opened = ImageIndex(index)
        demangler = options.demangle ? Demangler(names: options.names) : nil
        openedStatistics = Statistics(indexSeconds: MonotonicClock.seconds() - started, lineRows: index.lines.count,
                                      subroutines: index.subroutines.count, symbols: index.symbols.count,
                                      cacheHit: loaded != nil, cacheNote: cacheNote)
    }

    /// Writes a new index to the cache; what went wrong, for the note, if it could not.
    private static func writeCache(_ index: AddressIndex, to cachePath: String?, options: SymbolicationOptions) -> String? {
        guard let cachePath, let directory = options.cacheDirectory else { return nil }
        // A cache that cannot be written (read-only home, full disk) only costs speed.
        do {
            try FileIO.createDirectories(directory)
            try FileIO.writeAtomically(contentsOf: index.storage.bytes, to: cachePath, durable: false)
            return nil
        } catch {
            return "; not written: \(error.reason)"
        }
    }

    // MARK: the index in use

    /// The index lookups use: the opened one until a block of it was found damaged.
    @inline(__always)
    private func current() throws(SymbolicationError) -> ImageIndex {
        if !isReplaced.load(ordering: .acquiring) { return opened }
        return try replacement.withLock { $0.map(\.index) ?? .success(opened) }.get()
    }

    /// After `used` failed a block's check: the index built again from the DWARF, as opening
    /// a damaged cache does, and written over the cache. Built once, whichever thread asks first.
    @inline(never)
    private func replace(after damage: DecodeError, in used: ImageIndex) throws(SymbolicationError) -> ImageIndex {
        guard used === opened else { throw failedAgain(damage) }
        return try replacement.withLock { state -> Result<ImageIndex, SymbolicationError> in
            if let state { return state.index }
            var note = "cache rebuilt (\(damage.reason))"
            let result: Result<ImageIndex, SymbolicationError>
            do throws(SymbolicationError) {
                let image = try ImageLoader.load(file, options: options)
                let index = try Self.buildIndex(image, identity: identity)
                if let problem = Self.writeCache(index, to: cachePath, options: options) { note += problem }
                result = .success(ImageIndex(index))
            } catch {
                result = .failure(error)
            }
            state = (result, note)
            isReplaced.store(true, ordering: .releasing)
            return result
        }.get()
    }

    /// A rebuilt index is checked as it is read too; its failing is a bug, said as such.
    private func failedAgain(_ damage: DecodeError) -> SymbolicationError {
        SymbolicationError(kind: .malformed, path: path, offset: damage.offset, message: "the rebuilt symbol index failed its own check: \(damage.reason)")
    }

    /// `body` on the index in use; if it finds a block damaged, on the index built again.
    @inline(__always)
    private func withIndex<Value>(_ body: (ImageIndex) throws(DecodeError) -> Value) throws(SymbolicationError) -> Value {
        let used = try current()
        do { return try body(used) } catch {
            let rebuilt = try replace(after: error, in: used)
            do { return try body(rebuilt) } catch { throw failedAgain(error) }
        }
    }

    /// Threads that read DWARF units for a cold index build at most: past a few, the one
    /// thread adding units to the index is the bottleneck.
    static let maximumReadingJobs = 4

    /// Reads the DWARF (libdw) and symbols and builds the index.
    private static func buildIndex(_ image: LoadedImage, identity: IndexFile.Identity) throws(SymbolicationError) -> AddressIndex {
        // Every line-table row takes at least one byte of .debug_line: reserving that many
        // rows up front costs only address space, and the row array never grows by copying.
        var builder = AddressIndexBuilder(codeRanges: image.codeRanges, expectedLineRows: Int(min(image.lineTableSize, 1 << 26)))
        if let dwarf = image.dwarfImage {
            do {
                let reader = try DWARFReader(image: dwarf.bytes, owner: dwarf)
                // Reading units through libdw is most of a cold build; two or more cores
                // read them side by side (the builder takes them in order).
                try reader.forEachUnit(jobs: min(Processors.online, Self.maximumReadingJobs)) { builder.add($0) }
            } catch {
                throw .debugInfo(error, path: image.debugInfoPath ?? dwarf.path)
            }
        }
        let symbols = try image.symbols()
        builder.add(symbols: symbols.image, debugSymbols: symbols.debug)
        return IndexFile.serialize(builder.finish(identity: identity))
    }

    /// The file address for a runtime address of an image loaded at `loadAddress`.
    public func fileAddress(runtimeAddress: UInt64, loadAddress: UInt64) -> UInt64 {
        runtimeAddress &- loadAddress &+ imageBase
    }

    /// The frames at `fileAddress`, innermost inlined function first. An address that nothing
    /// describes gives one frame with `source == .unknown`. Throws only if a damaged cache
    /// block could not be replaced by indexing the DWARF again.
    public func frames(at fileAddress: UInt64) throws(SymbolicationError) -> [SymbolicatedFrame] {
        var records: [FrameRecord] = []
        let index = try frameRecords(at: fileAddress, into: &records)
        return records.map { record in
            SymbolicatedFrame(function: name(record.name, in: index), file: file(record.file, in: index), line: record.line,
                              column: record.column, isInlined: record.isInlined, source: record.source, symbolAddress: record.symbolAddress)
        }
    }

    /// The frames at `fileAddress` as string ids, innermost first, or only the outermost (the
    /// real function, at the position the inlined calls were made from) when `outermostOnly`,
    /// written over `records`: the form of `frames(at:)` that allocates nothing once
    /// `records` has grown, for a caller answering many addresses. Returns the index whose
    /// string ids they are; every block they come from and every string they name was checked.
    /// (An array, not a callback per frame: a closure passed through the retry below was
    /// called out of line, and so were the writer's calls inside it.)
    func frameRecords(at fileAddress: UInt64, outermostOnly: Bool = false, into records: inout [FrameRecord]) throws(SymbolicationError) -> ImageIndex {
        let used = try current()
        do {
            try Self.frameRecords(at: fileAddress, outermostOnly: outermostOnly, in: used.index, into: &records)
            return used
        } catch {
            let rebuilt = try replace(after: error, in: used)
            do {
                try Self.frameRecords(at: fileAddress, outermostOnly: outermostOnly, in: rebuilt.index, into: &records)
                return rebuilt
            } catch {
                throw failedAgain(error)
            }
        }
    }

    private static func frameRecords(at fileAddress: UInt64, outermostOnly: Bool, in index: AddressIndex,
                                     into records: inout [FrameRecord]) throws(DecodeError) {
        records.removeAll(keepingCapacity: true)
        let row = try index.line(at: fileAddress)
        // A row whose file is unknown counts as no file, so the symbol's own file is used.
        let rowFile = row.map(\.file) ?? StringTable.none
        try withUnsafeTemporaryAllocation(of: UInt32.self, capacity: index.longestChain) { (chain) throws(DecodeError) in
            var functionRange = 0
            let depth = try index.subroutineChain(at: fileAddress, into: chain, functionRange: &functionRange)
            // Everything the frames read is checked as they are added: the symbol when one
            // names the outermost frame, and every string they name. A failed check leaves
            // the caller nothing (its retry starts `records` again).
            let needsSymbol = depth == 0 || index.ranges[functionRange].outermostName == AddressIndex.RangeRecord.askSymbols
            let symbol = needsSymbol ? try index.symbol(at: fileAddress) : nil
            func add(_ record: FrameRecord) throws(DecodeError) {
                try index.checkString(record.name)
                try index.checkString(record.file)
                records.append(record)
            }
            if depth == 0 {
                if let symbol {
                    try add(FrameRecord(name: symbol.name, file: rowFile != StringTable.none ? rowFile : symbol.file,
                                        line: row?.line ?? 0, column: row?.column ?? 0, isInlined: false,
                                        source: .symbolTable, symbolAddress: symbol.start))
                } else {
                    try add(FrameRecord(name: StringTable.none, file: rowFile, line: row?.line ?? 0, column: row?.column ?? 0,
                                        isInlined: false, source: row == nil ? .unknown : .debugInfo))
                }
                return
            }
            var file = rowFile
            var line = row?.line ?? 0
            var column = row?.column ?? 0
            var position = depth - 1
            while true {
                let record = index.subroutines[Int(chain[position])]
                if position == 0 {
                    // The outermost frame is named by the image's own symbol table when a symbol
                    // there covers the address, as llvm-symbolizer does: it names split-off parts
                    // (`main.cold`) and functions whose DWARF has no linkage name. A stripped
                    // image's table is its .dynsym, whose names are the exported ones
                    // (`mtx_init`, not the debug file's `mtx_init@GLIBC_2.28` or `__mtx_init`); a
                    // function only the debug file's .symtab names (`__malloc_info.part.0`) keeps
                    // its DWARF name (`__malloc_info`).
                    // The builder worked out for most ranges that one symbol (or none) covers
                    // all of it, so only the others search the symbol table here.
                    var functionName = record.name
                    switch index.ranges[functionRange].outermostName {
                    case AddressIndex.RangeRecord.askSymbols:
                        if let symbol, symbol.isInImageTable { functionName = symbol.name }
                    case AddressIndex.RangeRecord.nameFromDWARF:
                        break
                    case let name:
                        functionName = name - AddressIndex.RangeRecord.symbolNameBase
                    }
                    try add(FrameRecord(name: functionName, file: file, line: line, column: column, isInlined: false, source: .debugInfo))
                    return
                }
                if !outermostOnly {
                    try add(FrameRecord(name: record.name, file: file, line: line, column: column, isInlined: true, source: .debugInfo))
                }
                // The caller's position is this inlined call's call site.
                file = record.callFile
                line = record.callLine
                column = record.callColumn
                position -= 1
            }
        }
    }

    /// Names and paths of `index` (the index in use when nil) as output bytes, for one
    /// answering loop (`forEachFrameRecord`'s string ids index it).
    func makeFrameText(for index: ImageIndex? = nil) -> FrameText {
        FrameText(index: index ?? ((try? current()) ?? opened), demangler: demangler)
    }

    /// The symbol-table function or object containing `fileAddress`: its name (demangled as
    /// asked) and start, for `symbol + offset` output.
    public func symbol(at fileAddress: UInt64) -> (name: String, start: UInt64)? {
        let found = try? withIndex { (used: ImageIndex) throws(DecodeError) -> (UInt32, UInt64, ImageIndex)? in
            guard let symbol = try used.index.symbol(at: fileAddress) else { return nil }
            try used.index.checkString(symbol.name)
            return (symbol.name, symbol.start, used)
        }
        guard let found, let name = name(found.0, in: found.2) else { return nil }
        return (name, found.1)
    }

    /// The runtime address of `fileAddress` in an image loaded at `loadAddress`.
    public func runtimeAddress(fileAddress: UInt64, loadAddress: UInt64) -> UInt64 {
        fileAddress &- imageBase &+ loadAddress
    }

    /// Name `id` of `used` (whose string it is, checked), demangled as asked.
    private func name(_ id: UInt32, in used: ImageIndex) -> String? {
        guard Int(id) < used.index.strings.spans.count else { return nil }
        if let cached = used.names.withLock({ $0[id] }) { return cached }
        guard let raw = used.index.strings.string(id) else { return nil }
        let result = demangler?.demangle(raw) ?? raw
        used.names.withLock { $0[id] = result }
        return result
    }

    /// File path `id` of `used` (checked).
    private func file(_ id: UInt32, in used: ImageIndex) -> String? {
        guard Int(id) < used.index.strings.spans.count else { return nil }
        if let cached = used.files.withLock({ $0[id] }) { return cached }
        guard let result = used.index.strings.string(id) else { return nil }
        used.files.withLock { $0[id] = result }
        return result
    }

    // MARK: identity

    private static func checkIdentity(_ actual: String?, options: SymbolicationOptions, path: String) throws(SymbolicationError) -> Bool {
        guard let expectedText = options.expectedIdentifier else { return true }
        guard let expected = normalizedIdentifier(expectedText) else {
            throw SymbolicationError(kind: .identifierMismatch, path: path, message: "\"\(expectedText)\" is not a hex build-id or UUID")
        }
        if actual == expected { return true }
        if options.allowIdentifierMismatch { return false }
        throw SymbolicationError(kind: .identifierMismatch, path: path,
                                 message: "build-id is \(actual ?? "absent"), expected \(expected); refusing to symbolicate with the wrong binary")
    }
}
