#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SystemCalls

/// A file's bytes, memory-mapped read-only (copy-on-write private pages), or an owned copy.
///
/// Object files and symbol caches are read through this so that a 100 MB binary costs page
/// faults for the parts actually read, not a full read(2). The mapping lives as long as the
/// object; `bytes` must not be used after it is released.
public final class MappedFile: @unchecked Sendable {
    /// The whole file.
    public let bytes: UnsafeRawBufferPointer
    /// The path as given (`<memory>` for copies).
    public let path: String
    /// Size and modification time from fstat, for cache validation (0 for copies).
    public let modificationTime: Int64
    private let unmapLength: Int
    private let owned: UnsafeMutableRawBufferPointer?

    /// Maps `path`, refusing files over `kind`'s size cap. An empty file gives an empty buffer.
    public init(path: String, kind: InputFile.Kind = .mapped) throws(FileIOError) {
        self.path = path
        let (fd, info) = try InputFile.open(path, kind: kind)
        defer { close(fd) }
        modificationTime = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
        let size = Int(info.st_size)
        owned = nil
        guard size > 0 else {
            bytes = UnsafeRawBufferPointer(start: nil, count: 0)
            unmapLength = 0
            return
        }
        // PROT_WRITE + MAP_PRIVATE: libelf may be handed this memory (elf_memory takes a
        // non-const pointer); any write it made would stay private to this process.
        let address = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0)
        guard let address, address != MAP_FAILED else {
            throw FileIOError.lastError(path: path, doing: "cannot map")
        }
        bytes = UnsafeRawBufferPointer(start: address, count: size)
        unmapLength = size
    }

    /// An owned copy of `contents` (tests, stdin, fuzzing), presented like a mapped file.
    public init(copying contents: some Collection<UInt8>, path: String = "<memory>") {
        self.path = path
        modificationTime = 0
        unmapLength = 0
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(contents.count, 1), alignment: 16)
        // Called across modules, unspecialised: the element-by-element copy took 1.3 M
        // instructions for a 40 KB debug image (`symbolicate --binary` of a small Mach-O).
        let copied: Void? = contents.withContiguousStorageIfAvailable { source in
            if let base = source.baseAddress { buffer.baseAddress!.copyMemory(from: base, byteCount: source.count) }
        }
        if copied == nil { _ = buffer.initializeMemory(as: UInt8.self, from: contents) }
        owned = buffer
        bytes = UnsafeRawBufferPointer(rebasing: buffer[0..<contents.count])
    }

    /// Takes ownership of `buffer` (allocated with `UnsafeMutableRawBufferPointer.allocate`);
    /// the first `count` bytes are the contents.
    public init(adopting buffer: UnsafeMutableRawBufferPointer, count: Int, path: String = "<memory>") {
        self.path = path
        modificationTime = 0
        unmapLength = 0
        owned = buffer
        bytes = UnsafeRawBufferPointer(rebasing: buffer[0..<min(count, buffer.count)])
    }

    /// Gives the mapped pages back to the kernel (`madvise(MADV_DONTNEED)`); the next read of
    /// a page faults it in again from the file. For a reader that streams through a large file
    /// once (an `.ipa` unpacked entry by entry), so that pages already read do not stay in the
    /// process's resident set. Must not be called after anything wrote through `bytes` (a
    /// private page written would be lost); a no-op for copies.
    public func releaseResidentPages() {
        guard unmapLength > 0, let base = bytes.baseAddress else { return }
        _ = madvise(UnsafeMutableRawPointer(mutating: base), unmapLength, MADV_DONTNEED)
    }

    /// `body` over the bytes, safe against the file shrinking while it runs: reading a page
    /// the file no longer has raises SIGBUS, which ends a process reading a mapping unguarded.
    /// Inside the guard such pages read as zeros and `body` runs to its end; its result is
    /// then discarded and the error names the first byte that went missing. A file changed in
    /// place (not shrunk) is read as it is found, as by a reader that reads it in pieces.
    /// Guards do not nest: `body` must not call this again.
    public func withTruncationGuard<Result>(_ body: (UnsafeRawBufferPointer) -> Result) throws(FileIOError) -> Result {
        guard unmapLength > 0, let base = bytes.baseAddress else { return body(bytes) }
        guard mapped_guard_enter(base, unmapLength) == 0 else {
            throw FileIOError.lastError(path: path, doing: "cannot guard the mapping")
        }
        let result = body(bytes)
        let missing = mapped_guard_leave()
        if missing >= 0 {
            // The first missing page the reader touched need not be the first one lost: a
            // binary plist's reader goes back to the offset table at the end all along.
            var now = stat()
            let size = stat(path, &now) == 0 ? " (it is now \(now.st_size) bytes)" : ""
            throw FileIOError(path: path, errno: EIO, reason: "shrank while being read: byte \(missing) was gone\(size)")
        }
        return result
    }

    deinit {
        if let owned { owned.deallocate() }
        if unmapLength > 0, let base = bytes.baseAddress { munmap(UnsafeMutableRawPointer(mutating: base), unmapLength) }
    }
}
