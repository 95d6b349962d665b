import FrameModel
import HeapAnalysis
import Symbolication

/// Heap analysis's `HeapSymbolizer` over devkit's Symbolication module (libdw), kept out of
/// HeapAnalysis so that reading and grouping recordings does not link libdw: one `ImageSymbolizer` per module,
/// opened on first use from the path the recording names and checked against its build-id.
/// A module that cannot be opened (gone, rebuilt since the recording, the vDSO) stays
/// unresolved, and `problems` says why once per module.
public final class ImageHeapSymbolizer: HeapSymbolizer {
    private var images: [String: ImageSymbolizer?] = [:]
    private var dataTables: [String: DataSymbolTable?] = [:]
    private let options: SymbolicationOptions
    /// One line per module that could not be symbolicated.
    public private(set) var problems: [String] = []

    /// `names`: the form of Swift names in frames and type names (`heapdiff --names`).
    public init(debugDirectories: [String] = [], names: NameForm = .full) {
        var options = SymbolicationOptions()
        options.debugDirectories = debugDirectories
        options.names = names
        self.options = options
    }

    private func image(for module: ModuleMapping) -> ImageSymbolizer? {
        let key = module.path + "\u{0}" + module.buildID
        if let known = images[key] { return known }
        var options = self.options
        options.expectedIdentifier = module.image.identifier
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
    private func dataSymbols(for module: ModuleMapping) -> DataSymbolTable? {
        let key = module.path + "\u{0}" + module.buildID
        if let known = dataTables[key] { return known }
        let table = image(for: module).flatMap { _ in try? DataSymbolTable(path: module.path, names: options.names) }
        dataTables[key] = .some(table)
        return table
    }

    public func frames(in module: ModuleMapping, fileAddress: UInt64) -> [SymbolicatedFrame] {
        guard let image = image(for: module), let frames = try? image.frames(at: fileAddress) else { return [] }
        return frames.filter { $0.function != nil }
    }

    public func symbolName(in module: ModuleMapping, fileAddress: UInt64) -> String? {
        dataSymbols(for: module)?.name(at: fileAddress)
    }
}
