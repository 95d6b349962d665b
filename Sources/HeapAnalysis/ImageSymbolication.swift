import Symbolication

/// Symbolicates through devkit's Symbolication module: one `ImageSymbolizer` per module,
/// opened on first use from the path the recording names and checked against its build-id.
/// A module that cannot be opened (gone, rebuilt since the recording, the vDSO) stays
/// unresolved, and `problems` says why once per module.
public final class ImageHeapSymbolizer: HeapSymbolizer {
    private var images: [String: ImageSymbolizer?] = [:]
    private var dataTables: [String: DataSymbolTable?] = [:]
    private let options: SymbolicationOptions
    /// One line per module that could not be symbolicated.
    public private(set) var problems: [String] = []

    public init(debugDirectories: [String] = []) {
        var options = SymbolicationOptions()
        options.debugDirectories = debugDirectories
        self.options = options
    }

    private func image(for module: HeapModule) -> ImageSymbolizer? {
        let key = module.path + "\u{0}" + module.buildID
        if let known = images[key] { return known }
        var options = self.options
        options.expectedIdentifier = module.buildID.isEmpty ? nil : module.buildID
        var opened: ImageSymbolizer?
        if module.path.hasPrefix("/") {
            do { opened = try ImageSymbolizer(path: module.path, options: options) } catch {
                problems.append("\(module.path): \(error.message)")
            }
        }
        images[key] = .some(opened)
        return opened
    }

    /// The module's data symbols (Swift type metadata), read once, only if the image opened.
    private func dataSymbols(for module: HeapModule) -> DataSymbolTable? {
        let key = module.path + "\u{0}" + module.buildID
        if let known = dataTables[key] { return known }
        let table = image(for: module).flatMap { _ in try? DataSymbolTable(path: module.path) }
        dataTables[key] = .some(table)
        return table
    }

    public func frames(in module: HeapModule, fileAddress: UInt64) -> [ResolvedFrame] {
        guard let image = image(for: module), let frames = try? image.frames(at: fileAddress) else { return [] }
        return frames.filter { $0.function != nil }.map {
            ResolvedFrame(function: $0.function, file: $0.file, line: $0.line, isInlined: $0.isInlined)
        }
    }

    public func symbolName(in module: HeapModule, fileAddress: UInt64) -> String? {
        dataSymbols(for: module)?.name(at: fileAddress)
    }
}
