internal import CLibDW
// libc directly (not through System): descriptors handed to libelf, strings libdwfl allocates,
// thread-local storage for its callbacks. devkit builds on Linux only.
internal import Glibc

// Every libdwfl call devkit makes (and the libelf/libdwelf calls that serve it) goes through
// this file (STYLE.md §3): the one place that knows the C types, the callback conventions
// and how errors are captured. Callers see Swift values only.
//
// libdwfl wants C function pointers (Dwfl_Callbacks, the module/thread/frame walks). Swift
// `@convention(c)` closures that capture nothing are exactly that, so no C target is needed:
// per-walk state travels through the `void *arg` every walk takes, and the search paths
// (which `find_elf` has no argument for) through a thread-local set for the session's life.

/// An opened core: the file, its `Elf *` and the `Dwfl *` that reported and attached it.
final class DwflCoreSession {
    private let fd: Int32
    private let elf: OpaquePointer
    private let dwfl: OpaquePointer
    /// libdwfl keeps pointers to the callbacks and the debuginfo path: they live as long as it.
    private let callbacks: UnsafeMutablePointer<Dwfl_Callbacks>
    private let debuginfoPath: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>
    private let searchContext: SearchContext
    let corePath: String
    let machine: CoreMachine
    /// `dwfl_core_file_attach`'s answer: the crashed process's pid.
    private(set) var pid: Int64 = 0

    private init(fd: Int32, elf: OpaquePointer, dwfl: OpaquePointer, callbacks: UnsafeMutablePointer<Dwfl_Callbacks>,
                 debuginfoPath: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>, searchContext: SearchContext,
                 corePath: String, machine: CoreMachine) {
        self.fd = fd
        self.elf = elf
        self.dwfl = dwfl
        self.callbacks = callbacks
        self.debuginfoPath = debuginfoPath
        self.searchContext = searchContext
        self.corePath = corePath
        self.machine = machine
    }

    deinit {
        // Invariant: the search context is reachable by find_elf for as long as libdwfl may call it.
        searchContext.withInstalled { dwfl_end(dwfl) }
        elf_end(elf)
        close(fd)
        free(debuginfoPath.pointee)
        debuginfoPath.deallocate()
        callbacks.deallocate()
    }

    /// Opens `corePath`, checks it is an ELF core, and has libdwfl report its modules and
    /// attach its threads (`dwfl_begin`, `dwfl_core_file_report`, `dwfl_report_end`,
    /// `dwfl_core_file_attach`).
    static func open(corePath: String, executable: String?, searchPaths: [String]) throws(CoreDumpError) -> DwflCoreSession {
        _ = elf_version(UInt32(EV_CURRENT))
        if let executable {
            // Invariant: an executable given explicitly exists and is readable; libdwfl would
            // silently fall back to the core's own record of it otherwise.
            let probe = Glibc.open(executable, O_RDONLY | O_CLOEXEC)
            guard probe >= 0 else { throw osError(path: executable, "cannot open the executable") }
            close(probe)
        }
        let fd = Glibc.open(corePath, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw osError(path: corePath, "cannot open the core") }
        guard let elf = elf_begin(fd, ELF_C_READ_MMAP, nil) else {
            let error = elfError(path: corePath, kind: .notELF, "not an ELF file", operation: "elf_begin")
            close(fd)
            throw error
        }
        var ownsElf = true
        defer { if ownsElf { elf_end(elf); close(fd) } }

        // Invariant: the file is ELF (libelf also accepts `ar` archives and returns ELF_K_NONE
        // for anything else, an empty file included).
        guard elf_kind(elf) == ELF_K_ELF else {
            throw CoreDumpError(path: corePath, kind: .notELF, message: "not an ELF file (no ELF header)", operation: "elf_kind")
        }
        var header = GElf_Ehdr()
        guard gelf_getehdr(elf, &header) != nil else {
            throw elfError(path: corePath, kind: .damaged, "the ELF header is unreadable", operation: "gelf_getehdr")
        }
        // Invariant: the file is a core; executables and libraries are ELF too.
        guard header.e_type == UInt16(ET_CORE) else {
            throw CoreDumpError(path: corePath, kind: .notCore, message: "an ELF file but not a core (e_type \(header.e_type), core is \(ET_CORE))")
        }
        let machine: CoreMachine = switch Int32(header.e_machine) {
        case EM_X86_64: .x86_64
        case EM_AARCH64: .aarch64
        default: .other(header.e_machine)
        }

        let context = SearchContext(searchPaths: searchPaths)
        // dwfl_standard_find_debuginfo's default path, then the search paths (absolute paths
        // there are also searched for `.build-id/xx/yyyy` by dwfl_build_id_find_elf).
        let path = ([":.debug:/usr/lib/debug"] + searchPaths).joined(separator: ":")
        let debuginfoPath = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: 1)
        debuginfoPath.initialize(to: strdup(path))
        let callbacks = UnsafeMutablePointer<Dwfl_Callbacks>.allocate(capacity: 1)
        callbacks.initialize(to: Dwfl_Callbacks(
            find_elf: findElf,
            find_debuginfo: dwfl_standard_find_debuginfo,
            section_address: nil,
            debuginfo_path: debuginfoPath
        ))
        guard let dwfl = dwfl_begin(callbacks) else {
            let error = dwflError(path: corePath, "libdwfl could not start", operation: "dwfl_begin")
            free(debuginfoPath.pointee)
            debuginfoPath.deallocate()
            callbacks.deallocate()
            throw error
        }
        ownsElf = false
        // From here the session owns everything: its deinit frees it when attaching throws.
        let session = DwflCoreSession(fd: fd, elf: elf, dwfl: dwfl, callbacks: callbacks, debuginfoPath: debuginfoPath,
                                      searchContext: context, corePath: corePath, machine: machine)
        try context.withInstalled { () throws(CoreDumpError) in try session.reportAndAttach(executable: executable) }
        return session
    }

    /// Reports the core's modules and attaches its threads; sets `pid`.
    private func reportAndAttach(executable: String?) throws(CoreDumpError) {
        dwfl_report_begin(dwfl)
        guard dwfl_core_file_report(dwfl, elf, executable) >= 0 else {
            let error = Self.dwflError(path: corePath, "the core's modules are unreadable (truncated or damaged)", operation: "dwfl_core_file_report")
            _ = dwfl_report_end(dwfl, nil, nil)
            throw error
        }
        guard dwfl_report_end(dwfl, nil, nil) == 0 else {
            throw Self.dwflError(path: corePath, "libdwfl could not finish reporting modules", operation: "dwfl_report_end")
        }
        let attached = dwfl_core_file_attach(dwfl, elf)
        guard attached >= 0 else {
            throw Self.dwflError(path: corePath, "the core's threads are unreadable (no NT_PRSTATUS, truncated or damaged)", operation: "dwfl_core_file_attach")
        }
        pid = Int64(attached)
    }

    // MARK: notes

    /// The `CORE` notes of every `PT_NOTE` segment whose type is in `types`, in file order
    /// (`elf_getdata_rawchunk` + `gelf_getnote`). Unreadable segments are skipped: libdwfl has
    /// already read the ones it needs, so a damaged note costs registers, not the report.
    func notes(types: Set<UInt32>, limits: CoreWalkLimits) -> (notes: [CoreNote], skippedSegments: Int) {
        var notes: [CoreNote] = []
        var skipped = 0
        var count = 0
        guard elf_getphdrnum(elf, &count) == 0 else { return ([], 1) }
        for index in 0..<count {
            var header = GElf_Phdr()
            guard gelf_getphdr(elf, Int32(clamping: index), &header) != nil else { skipped += 1; continue }
            guard header.p_type == UInt32(PT_NOTE), header.p_filesz > 0 else { continue }
            guard let offset = Int64(exactly: header.p_offset), let size = Int(exactly: header.p_filesz),
                  let data = elf_getdata_rawchunk(elf, offset, size, header.p_align == 8 ? ELF_T_NHDR8 : ELF_T_NHDR),
                  let base = data.pointee.d_buf else { skipped += 1; continue }
            var position = 0
            while notes.count < limits.maxNotes {
                var note = GElf_Nhdr()
                var nameOffset = 0
                var descriptorOffset = 0
                let next = gelf_getnote(data, position, &note, &nameOffset, &descriptorOffset)
                // Invariant: gelf_getnote returns 0 at the end or on a note that overruns the
                // segment, and moves strictly forward otherwise.
                guard next > position else { break }
                position = next
                guard types.contains(note.n_type), note.n_namesz == 5,
                      memcmp(base + nameOffset, "CORE", 4) == 0,
                      Int(note.n_descsz) <= limits.maxNoteDescriptor else { continue }
                let bytes = UnsafeRawBufferPointer(start: base + descriptorOffset, count: Int(note.n_descsz))
                notes.append(CoreNote(type: note.n_type, descriptor: Array(bytes)))
            }
        }
        return (notes, skipped)
    }

    // MARK: modules

    /// Every module libdwfl reported, sorted by start address (`dwfl_getmodules`,
    /// `dwfl_module_getelf` so the main file is looked for, `dwfl_module_info`, `dwfl_module_build_id`).
    func modules(limits: CoreWalkLimits) -> (modules: [CoreModule], truncated: Bool) {
        let collector = ModuleCollector(limit: limits.maxModules)
        searchContext.withInstalled {
            _ = dwfl_getmodules(dwfl, { module, _, _, _, arg in
                guard let module, let arg else { return Int32(DWARF_CB_ABORT) }
                let collector = Unmanaged<ModuleCollector>.fromOpaque(arg).takeUnretainedValue()
                guard collector.modules.count < collector.limit else {
                    collector.truncated = true
                    return Int32(DWARF_CB_ABORT)
                }
                var described = DwflCoreSession.describe(module)
                if !described.mainFileExists, let context = SearchContext.current,
                   let path = context.path(forModuleNamed: described.name, buildID: described.buildID) {
                    described.mainFile = path
                    described.mainFileExists = true
                }
                collector.modules.append(described)
                return Int32(DWARF_CB_OK)
            }, Unmanaged.passUnretained(collector).toOpaque(), 0)
        }
        return (collector.modules.sorted { $0.start < $1.start }, collector.truncated)
    }

    private static func describe(_ module: OpaquePointer) -> CoreModule {
        var bias: Dwarf_Addr = 0
        // Asks find_elf for the module's file now, so `mainfile` below is filled in when it exists.
        _ = dwfl_module_getelf(module, &bias)
        var start: Dwarf_Addr = 0
        var end: Dwarf_Addr = 0
        var mainFile: UnsafePointer<CChar>?
        var debugFile: UnsafePointer<CChar>?
        let name = dwfl_module_info(module, nil, &start, &end, nil, nil, &mainFile, &debugFile)
        return CoreModule(
            name: name.map { String(cString: $0) } ?? "",
            mainFile: mainFile.map { String(cString: $0) },
            mainFileExists: mainFile.map { access($0, R_OK) == 0 } ?? false,
            buildID: buildID(of: module),
            start: start,
            end: end
        )
    }

    fileprivate static func buildID(of module: OpaquePointer) -> [UInt8] {
        var bits: UnsafePointer<UInt8>?
        var address: GElf_Addr = 0
        let length = dwfl_module_build_id(module, &bits, &address)
        guard length > 0, let bits else { return [] }
        return Array(UnsafeBufferPointer(start: bits, count: Int(length)))
    }

    // MARK: threads

    /// Every thread, each unwound (`dwfl_getthreads`, `dwfl_thread_tid`, `dwfl_thread_getframes`,
    /// `dwfl_frame_pc`, `dwfl_frame_reg` for the loop check). Threads beyond the cap are
    /// counted in `truncated`, not unwound.
    func threads(limits: CoreWalkLimits) throws(CoreDumpError) -> (threads: [CoreThreadStack], truncated: Bool, walkError: String?) {
        let collector = ThreadCollector(limits: limits, stackPointer: machine.stackPointerDWARFRegister)
        let rc = searchContext.withInstalled {
            dwfl_getthreads(dwfl, { thread, arg in
                guard let thread, let arg else { return Int32(DWARF_CB_ABORT) }
                let collector = Unmanaged<ThreadCollector>.fromOpaque(arg).takeUnretainedValue()
                guard collector.threads.count < collector.limits.maxThreads else {
                    collector.truncated = true
                    return Int32(DWARF_CB_ABORT)
                }
                collector.begin(tid: Int64(dwfl_thread_tid(thread)))
                let rc = dwfl_thread_getframes(thread, { frame, arg in
                    guard let frame, let arg else { return Int32(DWARF_CB_ABORT) }
                    let collector = Unmanaged<ThreadCollector>.fromOpaque(arg).takeUnretainedValue()
                    var pc: Dwarf_Addr = 0
                    var isActivation = false
                    guard dwfl_frame_pc(frame, &pc, &isActivation) else {
                        collector.stop("no PC for frame \(collector.current.frames.count): \(DwflCoreSession.lastDwflMessage())")
                        return Int32(DWARF_CB_ABORT)
                    }
                    var stackPointer: Dwarf_Word = 0
                    let hasStackPointer = collector.stackPointer.map { dwfl_frame_reg(frame, $0, &stackPointer) == 0 } ?? false
                    return collector.add(pc: pc, isActivation: isActivation, stackPointer: hasStackPointer ? stackPointer : nil)
                }, arg)
                // -1: libdwfl could not unwind further (normal at many outermost frames); the
                // frames so far stand, and the reason is kept.
                if rc == -1, collector.current.stopReason == nil, !collector.current.frames.isEmpty {
                    collector.current.stopReason = DwflCoreSession.lastDwflMessage()
                } else if rc == -1, collector.current.stopReason == nil {
                    collector.current.stopReason = "no frames: \(DwflCoreSession.lastDwflMessage())"
                }
                collector.end()
                return Int32(DWARF_CB_OK)
            }, Unmanaged.passUnretained(collector).toOpaque())
        }
        // Invariant: a report has at least one thread; a walk that failed part-way keeps the
        // threads it read, and says so.
        if rc == -1, collector.threads.isEmpty {
            throw DwflCoreSession.dwflError(path: corePath, "the core's threads are unreadable", operation: "dwfl_getthreads")
        }
        return (collector.threads, collector.truncated, rc == -1 ? DwflCoreSession.lastDwflMessage() : nil)
    }

    // MARK: errors

    fileprivate static func lastDwflMessage() -> String {
        dwfl_errmsg(-1).map { String(cString: $0) } ?? "unknown libdwfl error"
    }

    private static func dwflError(path: String, _ what: String, operation: String) -> CoreDumpError {
        let code = dwfl_errno()
        let message = dwfl_errmsg(code).map { String(cString: $0) } ?? "unknown libdwfl error"
        return CoreDumpError(path: path, kind: .damaged, code: code, message: "\(what): \(message)", operation: operation)
    }

    private static func elfError(path: String, kind: CoreDumpError.Kind, _ what: String, operation: String) -> CoreDumpError {
        let code = elf_errno()
        let message = elf_errmsg(code).map { String(cString: $0) } ?? "unknown libelf error"
        return CoreDumpError(path: path, kind: kind, code: code, message: "\(what): \(message)", operation: operation)
    }

    private static func osError(path: String, _ what: String) -> CoreDumpError {
        let code = errno
        return CoreDumpError(path: path, kind: .unreadable, code: code, message: "\(what): \(String(cString: strerror(code)))", operation: "open")
    }
}

// MARK: - walk state

/// `dwfl_getmodules` state, reached through the walk's `void *arg`.
private final class ModuleCollector {
    let limit: Int
    var modules: [CoreModule] = []
    var truncated = false
    init(limit: Int) { self.limit = limit }
}

/// `dwfl_getthreads` / `dwfl_thread_getframes` state, reached through the walks' `void *arg`.
private final class ThreadCollector {
    let limits: CoreWalkLimits
    let stackPointer: UInt32?
    var threads: [CoreThreadStack] = []
    var current = CoreThreadStack(tid: 0, frames: [])
    var truncated = false
    /// The previous frame's PC and stack pointer: a frame identical to it means the unwinder
    /// is going round in a loop (corrupt stack or CFI) and would otherwise run to the cap.
    private var previous: (pc: UInt64, stackPointer: UInt64)?

    init(limits: CoreWalkLimits, stackPointer: UInt32?) {
        self.limits = limits
        self.stackPointer = stackPointer
    }

    func begin(tid: Int64) {
        current = CoreThreadStack(tid: tid, frames: [])
        previous = nil
    }

    func add(pc: UInt64, isActivation: Bool, stackPointer: UInt64?) -> Int32 {
        if let stackPointer {
            if let previous, previous.pc == pc, previous.stackPointer == stackPointer {
                stop("unwinding loop: frame \(current.frames.count) repeats pc 0x\(String(pc, radix: 16)) with the same stack pointer")
                return Int32(DWARF_CB_ABORT)
            }
            previous = (pc, stackPointer)
        }
        current.frames.append(UnwoundFrame(pc: pc, isActivation: isActivation))
        guard current.frames.count < limits.maxFramesPerThread else {
            stop("stopped at the cap of \(limits.maxFramesPerThread) frames")
            return Int32(DWARF_CB_ABORT)
        }
        return Int32(DWARF_CB_OK)
    }

    func stop(_ reason: String) { current.stopReason = reason }

    func end() { threads.append(current) }
}

// MARK: - find_elf with search paths

/// The search paths for the session, made visible to `findElf` (libdwfl's `find_elf` takes no
/// context argument) through a thread-local slot while libdwfl runs on this thread.
private final class SearchContext {
    let searchPaths: [String]

    init(searchPaths: [String]) { self.searchPaths = searchPaths }

    /// Runs `body` with this context installed for the calling thread, restoring the previous one.
    func withInstalled<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        let saved = pthread_getspecific(searchContextKey)
        pthread_setspecific(searchContextKey, Unmanaged.passUnretained(self).toOpaque())
        defer { pthread_setspecific(searchContextKey, saved) }
        return try body()
    }

    static var current: SearchContext? {
        pthread_getspecific(searchContextKey).map { Unmanaged<SearchContext>.fromOpaque($0).takeUnretainedValue() }
    }

    /// libdwfl's `find_elf` fallback: the module's file from the search paths (see
    /// `candidate(named:buildID:)`), handed over as libdwfl wants it.
    func open(module: OpaquePointer, name: String, fileName: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
              elfOut: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
        guard let found = candidate(named: name, buildID: DwflCoreSession.buildID(of: module)) else { return -1 }
        // libdwfl takes ownership of the fd, the Elf and the malloc'd name.
        fileName?.pointee = strdup(found.path)
        elfOut?.pointee = found.elf
        return found.fd
    }

    /// The file named like the module (its base name) in the first search path that has one
    /// whose build-id matches the core's (or any, when the core holds none): a library of the
    /// same name from another build would unwind and symbolicate wrongly. The caller owns the
    /// returned fd and Elf.
    func candidate(named name: String, buildID expected: [UInt8]) -> (path: String, fd: Int32, elf: OpaquePointer)? {
        guard !name.hasPrefix("["), let base = name.split(separator: "/").last, !base.isEmpty else { return nil }
        for directory in searchPaths {
            let path = directory.hasSuffix("/") ? directory + base : directory + "/" + base
            let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { continue }
            guard let elf = elf_begin(fd, ELF_C_READ_MMAP, nil) else {
                close(fd)
                continue
            }
            var found: UnsafeRawPointer?
            let foundLength = dwelf_elf_gnu_build_id(elf, &found)
            let foundBytes = found.map { Array(UnsafeRawBufferPointer(start: $0, count: max(0, foundLength))) } ?? []
            let matches = expected.isEmpty || foundBytes == expected
            guard elf_kind(elf) == ELF_K_ELF, matches else {
                elf_end(elf)
                close(fd)
                continue
            }
            return (path, fd, elf)
        }
        return nil
    }

    /// The search-path file for a module whose own file libdwfl did not open from disk (it
    /// may have rebuilt the module from the core's memory, which unwinds but leaves the
    /// core's stale path as the module's file): the image then names the file devkit can
    /// symbolicate with.
    func path(forModuleNamed name: String, buildID: [UInt8]) -> String? {
        guard let found = candidate(named: name, buildID: buildID) else { return nil }
        elf_end(found.elf)
        close(found.fd)
        return found.path
    }
}

/// The thread-local slot `SearchContext.withInstalled` uses.
private let searchContextKey: pthread_key_t = {
    var key = pthread_key_t()
    pthread_key_create(&key, nil)
    return key
}()

/// libdwfl's `find_elf`: `dwfl_build_id_find_elf` (build-id directories of the debuginfo
/// path, then the path the core recorded), then the search paths by base name.
private let findElf: @convention(c) (
    OpaquePointer?, UnsafeMutablePointer<UnsafeMutableRawPointer?>?, UnsafePointer<CChar>?, Dwarf_Addr,
    UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, UnsafeMutablePointer<OpaquePointer?>?
) -> Int32 = { module, userdata, name, base, fileName, elfOut in
    let fd = dwfl_build_id_find_elf(module, userdata, name, base, fileName, elfOut)
    if fd >= 0 || elfOut?.pointee != nil { return fd }
    guard let module, let name, let context = SearchContext.current, !context.searchPaths.isEmpty else { return fd }
    // dwfl_build_id_find_elf may have set a name for a file it then did not open.
    if let stale = fileName?.pointee {
        free(stale)
        fileName?.pointee = nil
    }
    return context.open(module: module, name: String(cString: name), fileName: fileName, elfOut: elfOut)
}
