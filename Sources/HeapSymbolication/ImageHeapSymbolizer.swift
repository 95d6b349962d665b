import FrameModel
import HeapAnalysis
import Symbolication

/// Heap analysis's `HeapSymbolizer` over devkit's Symbolication module (libdw), kept out of
/// HeapAnalysis so that reading and grouping recordings does not link libdw: one `ImageSymbolizer` per module,
/// opened on first use (or ahead, by `prepare`) from the path the recording names and checked
/// against its build-id.
/// A module that cannot be opened (gone, rebuilt since the recording, the vDSO) stays
/// unresolved, and `problems` says why once per module.
public final class ImageHeapSymbolizer: HeapSymbolizer {
    private var images: [String: ImageSymbolizer?] = [:]
    private var dataTables: [String: DataSymbolTable?] = [:]
    private let options: SymbolicationOptions
    /// One line per module that could not be symbolicated.
    public private(set) var problems: [String] = []
    /// Problems of modules opened and not asked about since, by key.
    private var unreported: [String: String] = [:]

    /// `names`: the form of Swift names in frames and type names (`heapdiff --names`).
    public init(debugDirectories: [String] = [], names: NameForm = .full) {
        var options = SymbolicationOptions()
        options.debugDirectories = debugDirectories
        options.names = names
        self.options = options
    }

    private func cacheKey(for module: ModuleMapping) -> String { module.path + "\u{0}" + module.buildID }

    /// The module's image, opened on first use; its problem, if any, is told now.
    private func image(for module: ModuleMapping) -> ImageSymbolizer? {
        let key = load(module)
        if let problem = unreported.removeValue(forKey: key) { problems.append(problem) }
        return images[key] ?? nil
    }

    /// Opens the module's image once, keyed by path and build-id (the key is returned); a
    /// module that cannot be opened waits in `unreported` until it is asked about.
    @discardableResult private func load(_ module: ModuleMapping) -> String {
        let key = cacheKey(for: module)
        if images[key] == nil {
            let (opened, problem) = open(module)
            images[key] = .some(opened)
            if let problem { unreported[key] = problem }
        }
        return key
    }

    /// The module's image, or why it cannot be symbolicated (nil for a pseudo-module such as
    /// the vDSO, which has no file and is not worth a warning).
    private func open(_ module: ModuleMapping) -> (ImageSymbolizer?, problem: String?) {
        guard module.path.hasPrefix("/") else { return (nil, nil) }
        var options = self.options
        options.expectedIdentifier = module.image.identifier
        do { return (try ImageSymbolizer(path: module.path, options: options), nil) } catch {
            return (nil, "\(module.path): \(error.message)")
        }
    }

    /// Opens the modules' images now; a module that cannot be opened is told in `problems`
    /// only once it is asked about, so the warnings are those of the modules the report used.
    public func prepare(_ modules: [ModuleMapping]) {
        for module in modules { load(module) }
    }

    /// The module's data symbols (Swift type metadata), read once, only if the image opened.
    private func dataSymbols(for module: ModuleMapping) -> DataSymbolTable? {
        let key = cacheKey(for: module)
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
