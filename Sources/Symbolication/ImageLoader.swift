import BinaryReading
import Diagnostics
import ElfUtils
import System
import ObjectFile

/// Opens an image's object file (ELF or Mach-O) and finds its DWARF.
enum ImageLoader {
    /// A `.dSYM` bundle stands for the DWARF file inside it.
    static func resolvedPath(_ path: String) -> String {
        var trimmed = path
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed.removeLast() }
        guard trimmed.hasSuffix(".dSYM"), FileIO.isDirectory(trimmed) else { return path }
        let name = String(trimmed.split(separator: "/").last?.dropLast(5) ?? "")
        return "\(trimmed)/Contents/Resources/DWARF/\(name)"
    }

    static func load(_ file: MappedFile, options: SymbolicationOptions) throws(SymbolicationError) -> LoadedImage {
        if ELFFile.hasMagic(file.bytes) { return try loadELF(file, options: options) }
        if isMachO(file.bytes) { return try loadMachO(file, options: options) }
        throw SymbolicationError(kind: .unsupportedFormat, path: file.path, offset: 0, message: "not an ELF or Mach-O file")
    }

    // MARK: ELF

    static func parseELF(_ file: MappedFile) throws(SymbolicationError) -> ELFFile {
        guard ELFFile.hasMagic(file.bytes) else {
            throw SymbolicationError(kind: .unsupportedFormat, path: file.path, offset: 0, message: "not an ELF file")
        }
        do { return try ELFFile(file) } catch { throw .malformed(error, path: file.path) }
    }

    private static func openELF(_ path: String) throws(SymbolicationError) -> ELFFile {
        do { return try parseELF(try MappedFile(path: path)) } catch let error as SymbolicationError { throw error } catch {
            throw SymbolicationError(kind: .unreadable, path: path, message: "\(error)")
        }
    }

    private static func loadELF(_ file: MappedFile, options: SymbolicationOptions) throws(SymbolicationError) -> LoadedImage {
        let path = file.path
        let image = try parseELF(file)
        var buildID: [UInt8]?
        do { buildID = try image.buildID() } catch { throw .malformed(error, path: path) }
        // DWARF: in the image, else a separate debug file that matches it.
        var debugImage: ELFFile? = image.hasDWARF ? image : nil
        if debugImage == nil {
            debugImage = try separateDebugFile(for: image, path: path, buildID: buildID, directories: options.debugDirectories)
        }
        var warnings: [Diagnostic] = []
        if debugImage == nil, let buildID, !buildID.isEmpty, let client = options.debuginfod {
            switch fetchedDebugFile(client, buildID: buildID) {
            case .success(let debug): debugImage = debug
            case .failure(let problem):
                // .fileNotFound: the server answered that it has no such file (callers listing
                // many images may leave that to their own "missing"); .io: the server failed.
                warnings.append(Diagnostic(file: path, severity: .warning, message: "\(problem.description); symbol-table names only",
                                           kind: problem.isNotFound ? .fileNotFound : .io))
            }
        }
        let lineTable = debugImage?.section(named: ".debug_line") ?? debugImage?.section(named: ".zdebug_line")
        let separate = debugImage.flatMap { $0.file === file ? nil : $0 }
        return LoadedImage(
            identifier: buildID,
            imageBase: image.segments.filter { $0.type == ELFSegment.loadType }.map(\.virtualAddress).min() ?? 0,
            // The debug file's sections have the same addresses; the image's are authoritative.
            codeRanges: image.sections.filter { $0.isAllocated && $0.isExecutable && $0.size > 0 }.map { ($0.address, $0.address &+ $0.size) },
            debugFile: separate?.file, debugInfoPath: debugImage?.file.path, dwarfImage: debugImage?.file,
            lineTableSize: lineTable.map { $0.compression?.uncompressedSize ?? $0.size } ?? 0,
            symbols: { () throws(SymbolicationError) -> (image: [ELFSymbol], debug: [ELFSymbol]) in
                do throws(DecodeError) {
                    // A stripped image keeps only .dynsym; the debug file has the full .symtab.
                    let symbols = try image.symbols()
                    if !image.sections.contains(where: { $0.type == ELFSection.symbolTableType }), let separate {
                        return (symbols, try separate.symbols())
                    }
                    return (symbols, [])
                } catch {
                    throw .malformed(error, path: path)
                }
            },
            warnings: warnings)
    }

    /// The debug file a debuginfod server has for `buildID` (libdebuginfod's cached copy),
    /// checked like a local one: DWARF and the same build-id.
    private static func fetchedDebugFile(_ client: DebuginfodClient, buildID: [UInt8]) -> Result<ELFFile, DebuginfodError> {
        switch client.fetch(.debugInfo, buildID: buildID) {
        case .failure(let error):
            return .failure(error)
        case .success(let fetched):
            guard let debug = try? openELF(fetched), debug.hasDWARF, (try? debug.buildID()) == buildID else {
                return .failure(DebuginfodError(buildID: hexString(buildID), artifact: DebuginfodClient.Artifact.debugInfo.rawValue,
                                                servers: client.settings.servers, code: 0,
                                                reason: "the file it gave (\(fetched)) has no DWARF or another build-id"))
            }
            return .success(debug)
        }
    }

    /// A separate debug file found by build-id or debuglink whose identity matches the image:
    /// the same build-id, or (without one) the debuglink CRC.
    private static func separateDebugFile(for image: ELFFile, path: String, buildID: [UInt8]?,
                                          directories: [String]) throws(SymbolicationError) -> ELFFile? {
        let link: (name: String, crc: UInt32)?
        do { link = try image.debugLink() } catch { throw .malformed(error, path: path) }
        let locator = DebugFileLocator(debugDirectories: directories)
        for candidate in locator.candidates(binaryPath: path, buildID: buildID, debugLink: link?.name) {
            guard let debug = try? openELF(candidate), debug.hasDWARF else { continue }
            if let buildID {
                guard (try? debug.buildID()) == buildID else { continue }
            } else if let link {
                guard CRC32.checksum(debug.file.bytes) == link.crc else { continue }
            }
            return debug
        }
        return nil
    }

    // MARK: Mach-O

    static func isMachO(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard bytes.count >= 4 else { return false }
        return MachOFile.isMachO(Array(bytes.prefix(4)))
    }

    /// One slice of a Mach-O file (thin or fat), with its bytes and contents.
    private static func slice(_ file: MappedFile, architecture: String?, uuid: [UInt8]? = nil) throws(SymbolicationError) -> (MachOSlice, MachOContents, UnsafeRawBufferPointer) {
        let images: [MachOSlice]
        do { images = try MachOFile.images(file.bytes) } catch { throw .malformed(error, path: file.path) }
        var candidates = images
        if let architecture {
            candidates = images.filter { $0.matches(architecture: architecture) }
            guard !candidates.isEmpty else {
                throw SymbolicationError(kind: .unsupportedFormat, path: file.path,
                                         message: "no \(architecture) slice (it has \(images.map(\.architecture).joined(separator: ", ")))")
            }
        }
        var parsed: [(MachOSlice, MachOContents, UnsafeRawBufferPointer)] = []
        for image in candidates {
            let bytes = image.bytes(in: file.bytes)
            do { parsed.append((image, try MachOContents.read(image, bytes: bytes), bytes)) } catch { throw .malformed(error, path: file.path) }
        }
        if let uuid { parsed = parsed.filter { $0.1.uuid == uuid } }
        guard parsed.count == 1, let only = parsed.first else {
            if parsed.isEmpty { throw SymbolicationError(kind: .identifierMismatch, path: file.path, message: "no slice with UUID \(uuid.map(UUIDText.format) ?? "")") }
            throw SymbolicationError(kind: .unsupportedFormat, path: file.path,
                                     message: "a fat file with \(parsed.map(\.0.architecture).joined(separator: ", ")): choose one with --arch")
        }
        return only
    }

    private static func loadMachO(_ file: MappedFile, options: SymbolicationOptions) throws(SymbolicationError) -> LoadedImage {
        let path = file.path
        let (image, contents, _) = try slice(file, architecture: options.architecture)
        // DWARF: in the file itself (a dSYM's DWARF file, or an object file), else a dSYM
        // beside it or in a --debug-dir whose slice has the same UUID.
        var debug: (file: MappedFile, contents: MachOContents, bytes: UnsafeRawBufferPointer)?
        if contents.sections.contains(where: { $0.segment == "__DWARF" && $0.name == "__debug_info" }) {
            let bytes = image.bytes(in: file.bytes)
            debug = (file, contents, bytes)
        } else if let uuid = contents.uuid {
            let name = path.split(separator: "/").last.map(String.init) ?? path
            let candidates = ["\(path).dSYM"] + options.debugDirectories.map { "\($0)/\(name).dSYM" }
            for candidate in candidates {
                guard let dsym = try? MappedFile(path: resolvedPath(candidate)), isMachO(dsym.bytes),
                      let found = try? slice(dsym, architecture: options.architecture ?? image.architecture, uuid: uuid) else { continue }
                debug = (dsym, found.1, found.2)
                break
            }
        }
        var dwarfImage: MappedFile?
        var lineTableSize: UInt64 = 0
        let codeSections = contents.sections.filter { $0.isCode && $0.size > 0 }
        if let debug {
            var sections: [ELFDebugImageWriter.Section] = []
            for section in debug.contents.sections where section.segment == "__DWARF" && section.name.hasPrefix("__debug_") {
                let bytes: UnsafeRawBufferPointer
                do { bytes = try debug.contents.contents(of: section, in: debug.bytes) } catch { throw .malformed(error, path: debug.file.path) }
                // Mach-O names are cut at 16 bytes: __debug_str_offs is .debug_str_offsets.
                let name = section.name == "__debug_str_offs" ? ".debug_str_offsets" : "." + section.name.dropFirst(2)
                sections.append(ELFDebugImageWriter.Section(name: name, bytes: bytes))
                if name == ".debug_line" { lineTableSize = section.size }
            }
            let elf = ELFDebugImageWriter.image(
                machine: ELFDebugImageWriter.machine(forMachOCPUType: image.cpuType), sections: sections,
                code: codeSections.map { (".text", $0.address, $0.size) })
            dwarfImage = MappedFile(copying: elf, path: debug.file.path)
        }
        let debugSymbols = debug?.contents.symbols ?? []
        return LoadedImage(
            identifier: contents.uuid, imageBase: contents.textAddress,
            codeRanges: codeSections.map { ($0.address, $0.address &+ $0.size) },
            debugFile: debug.flatMap { $0.file === file ? nil : $0.file }, debugInfoPath: debug?.file.path,
            dwarfImage: dwarfImage, lineTableSize: lineTableSize,
            symbols: { () throws(SymbolicationError) -> (image: [ELFSymbol], debug: [ELFSymbol]) in
                // C and Swift symbols carry a leading underscore on Mach-O; shown without it.
                let symbols = (contents.symbols.isEmpty ? debugSymbols : contents.symbols).map { symbol in
                    var symbol = symbol
                    if symbol.name.hasPrefix("_") { symbol.name.removeFirst() }
                    return symbol
                }
                return (symbols, [])
            })
    }
}
