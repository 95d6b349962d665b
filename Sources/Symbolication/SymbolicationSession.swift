import FrameModel
import Synchronization

/// Symbolicates addresses across many images (a crash log's or a heap recording's): each
/// image is opened once, by path, build-id/UUID and architecture, and reused; a failure to
/// open one is remembered too, so a missing binary costs one attempt, not one per frame.
/// Safe to share between threads.
///
/// ```swift
/// let session = SymbolicationSession(options: options)
/// let frames = try session.frames(atRuntimeAddress: pc, imagePath: "/usr/lib/libfoo.so",
///                                 loadAddress: base, identifier: buildID)
/// ```
public final class SymbolicationSession: Sendable {
    /// Options every image is opened with; per-image identity and architecture come from the calls.
    public let options: SymbolicationOptions

    private struct Key: Hashable {
        var path: String
        var identifier: String?
        var architecture: String?
    }
    private let images = Mutex<[Key: Result<ImageSymbolizer, SymbolicationError>]>([:])

    public init(options: SymbolicationOptions = SymbolicationOptions()) {
        self.options = options
    }

    /// The symbolizer for the image at `path`, opened on first use. `identifier` (build-id or
    /// UUID) is checked as `SymbolicationOptions.expectedIdentifier` is.
    public func image(at path: String, identifier: String? = nil, architecture: String? = nil) throws(SymbolicationError) -> ImageSymbolizer {
        let key = Key(path: path, identifier: identifier.flatMap(normalizedIdentifier), architecture: architecture)
        if let known = images.withLock({ $0[key] }) { return try known.get() }
        var imageOptions = options
        imageOptions.expectedIdentifier = identifier ?? options.expectedIdentifier
        imageOptions.architecture = architecture ?? options.architecture
        let result: Result<ImageSymbolizer, SymbolicationError>
        do { result = .success(try ImageSymbolizer(path: path, options: imageOptions)) } catch { result = .failure(error) }
        // Two threads may open the same image at once; the first stored wins.
        let stored = images.withLock { table in
            if let existing = table[key] { return existing }
            table[key] = result
            return result
        }
        return try stored.get()
    }

    /// The frames for a runtime address in the image at `path` loaded at `loadAddress`.
    public func frames(atRuntimeAddress address: UInt64, imagePath path: String, loadAddress: UInt64,
                       identifier: String? = nil, architecture: String? = nil) throws(SymbolicationError) -> [SymbolicatedFrame] {
        let image = try image(at: path, identifier: identifier, architecture: architecture)
        return try image.frames(at: image.fileAddress(runtimeAddress: address, loadAddress: loadAddress))
    }
}
