internal import CLibDW
// libc directly (not through System): descriptors handed to libelf, strings libdwfl allocates,
// thread-local storage for its callbacks. devkit builds on Linux only.
internal import Glibc
import ObjectFile
import OpenGuard
import System

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
    /// libdwfl keeps a pointer to the callbacks: they live as long as it.
    private let callbacks: UnsafeMutablePointer<Dwfl_Callbacks>
    private let searchContext: SearchContext
    let corePath: String
    let machine: CoreMachine
    /// `dwfl_core_file_attach`'s answer (or the `NT_PRPSINFO` pid devkit's own attach read):
    /// the crashed process's pid.
    private(set) var pid: Int64 = 0
    /// devkit's own thread callbacks and what they answer from, when the core is one they
    /// serve (`ownThreadState`); nil when libdwfl's `dwfl_core_file_attach` attached it.
    private var threadState: CoreThreadState?
    private var threadCallbacks: UnsafeMutablePointer<Dwfl_Thread_Callbacks>?
    /// The threads' initial registers, `threadRegisterCount` words each: a thread's
    /// `thread_arg` points at its own.
    private var threadRegisters: UnsafeMutableBufferPointer<Dwarf_Word>?

    private init(fd: Int32, elf: OpaquePointer, dwfl: OpaquePointer, callbacks: UnsafeMutablePointer<Dwfl_Callbacks>,
                 searchContext: SearchContext, corePath: String, machine: CoreMachine) {
        self.fd = fd
        self.elf = elf
        self.dwfl = dwfl
        self.callbacks = callbacks
        self.searchContext = searchContext
        self.corePath = corePath
        self.machine = machine
    }

    deinit {
        // Invariant: the search context is reachable by find_elf for as long as libdwfl may call it.
        searchContext.withInstalled { dwfl_end(dwfl) }
        elf_end(elf)
        close(fd)
        callbacks.deallocate()
        threadCallbacks?.deallocate()
        threadRegisters?.deallocate()
    }

    /// Opens `corePath`, checks it is an ELF core, and has libdwfl report its modules and
    /// attach its threads (`dwfl_begin`, `dwfl_core_file_report`, `dwfl_report_end`,
    /// `dwfl_core_file_attach`).
    /// `ownThreads: false` attaches with `dwfl_core_file_attach` whatever the core (tests
    /// compare the two).
    static func open(corePath: String, executable: String?, searchPaths: [String], ownThreads: Bool = true) throws(CoreDumpError) -> DwflCoreSession {
        _ = elf_version(UInt32(EV_CURRENT))
        if let executable {
            // Invariant: an executable given explicitly is a readable regular file; libdwfl
            // would silently fall back to the core's own record of it otherwise.
            do { close(try InputFile.open(executable, kind: .mapped).fd) } catch {
                throw CoreDumpError(path: executable, kind: .unreadable, code: error.errno, message: "cannot open the executable: \(error.reason)", operation: "open")
            }
        }
        let fd: Int32, fileSize: Int
        do {
            let opened = try InputFile.open(corePath, kind: .mapped)
            (fd, fileSize) = (opened.fd, Int(opened.info.st_size))
        } catch {
            throw CoreDumpError(path: corePath, kind: .unreadable, code: error.errno, message: "cannot open the core: \(error.reason)", operation: "open")
        }
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

        let context = SearchContext(searchPaths: searchPaths, executable: executable)
        // devkit's own find_elf and find_debuginfo: every file libdwfl reads is opened here,
        // through InputFile, so a path a core names cannot be a FIFO or a device.
        let callbacks = UnsafeMutablePointer<Dwfl_Callbacks>.allocate(capacity: 1)
        callbacks.initialize(to: Dwfl_Callbacks(find_elf: findElf, find_debuginfo: findDebuginfo, section_address: nil, debuginfo_path: nil))
        guard let dwfl = dwfl_begin(callbacks) else {
            let error = dwflError(path: corePath, "libdwfl could not start", operation: "dwfl_begin")
            callbacks.deallocate()
            throw error
        }
        ownsElf = false
        // From here the session owns everything: its deinit frees it when attaching throws.
        let session = DwflCoreSession(fd: fd, elf: elf, dwfl: dwfl, callbacks: callbacks,
                                      searchContext: context, corePath: corePath, machine: machine)
        do {
            try context.withInstalled { () throws(CoreDumpError) in try session.reportAndAttach(executable: executable, ownThreads: ownThreads) }
        } catch {
            // libdwfl does not say where a core is damaged; a core shorter than its segments
            // is truncated, and the position is where its bytes end.
            let extent = segmentExtent(elf)
            guard fileSize < extent else { throw error }
            var truncated = error
            truncated.offset = fileSize
            truncated.message += "; the file ends at byte \(fileSize), its segments reach byte \(extent) (truncated)"
            throw truncated
        }
        return session
    }

    /// The end of the furthest program segment (p_offset + p_filesz): how long the core claims to be.
    private static func segmentExtent(_ elf: OpaquePointer) -> Int {
        var count = 0
        guard elf_getphdrnum(elf, &count) == 0 else { return 0 }
        var extent: UInt64 = 0
        for index in 0..<count {
            var header = GElf_Phdr()
            guard gelf_getphdr(elf, Int32(index), &header) != nil else { continue }
            let (end, overflow) = header.p_offset.addingReportingOverflow(header.p_filesz)
            extent = max(extent, overflow ? .max : end)
        }
        return Int(clamping: extent)
    }

    /// Reports the core's modules and attaches its threads; sets `pid`.
    private func reportAndAttach(executable: String?, ownThreads: Bool) throws(CoreDumpError) {
        dwfl_report_begin(dwfl)
        guard dwfl_core_file_report(dwfl, elf, executable) >= 0 else {
            let error = Self.dwflError(path: corePath, "the core's modules are unreadable (truncated or damaged)", operation: "dwfl_core_file_report")
            _ = dwfl_report_end(dwfl, nil, nil)
            throw error
        }
        guard dwfl_report_end(dwfl, nil, nil) == 0 else {
            throw Self.dwflError(path: corePath, "libdwfl could not finish reporting modules", operation: "dwfl_report_end")
        }
        if ownThreads, attachOwnThreads() { return }
        let attached = dwfl_core_file_attach(dwfl, elf)
        guard attached >= 0 else {
            throw Self.dwflError(path: corePath, "the core's threads are unreadable (no NT_PRSTATUS, truncated or damaged)", operation: "dwfl_core_file_attach")
        }
        pid = Int64(attached)
    }

    // MARK: devkit's own thread callbacks

    /// True when devkit's callbacks attached the threads (`attachOwnThreads`).
    var threadsAttachedByDevkit: Bool { threadState != nil }

    /// DWARF registers each thread starts with (x86-64's frame registers).
    private static let threadRegisterCount = CoreThreadState.x86_64Registers.count

    /// Attaches the core's threads through devkit's callbacks (`dwfl_attach_state`): the
    /// same threads, registers and memory as `dwfl_core_file_attach`'s, with memory read
    /// straight from the mapped file (`CoreMemory`) instead of a program-header scan and an
    /// allocated libelf chunk per word. False (nothing attached) for a core they do not serve.
    private func attachOwnThreads() -> Bool {
        guard let state = ownThreadState() else { return false }
        let registers = UnsafeMutableBufferPointer<Dwarf_Word>.allocate(capacity: max(1, state.threads.count * Self.threadRegisterCount))
        for (i, thread) in state.threads.enumerated() {
            for (j, value) in thread.registers.enumerated() { registers[i * Self.threadRegisterCount + j] = value }
        }
        let callbacks = UnsafeMutablePointer<Dwfl_Thread_Callbacks>.allocate(capacity: 1)
        callbacks.initialize(to: Dwfl_Thread_Callbacks(
            next_thread: { _, arg, threadArgument in
                guard let arg, let threadArgument else { return -1 }
                let session = Unmanaged<DwflCoreSession>.fromOpaque(arg).takeUnretainedValue()
                guard let state = session.threadState, let registers = session.threadRegisters?.baseAddress else { return -1 }
                // *thread_argp: nil before the first thread, else the registers of the one before.
                let next = threadArgument.pointee.map { ($0.assumingMemoryBound(to: Dwarf_Word.self) - registers) / DwflCoreSession.threadRegisterCount + 1 } ?? 0
                guard next < state.threads.count else { return 0 }
                threadArgument.pointee = UnsafeMutableRawPointer(registers + next * DwflCoreSession.threadRegisterCount)
                return state.threads[next].tid
            },
            get_thread: nil,
            memory_read: { _, address, result, arg in
                guard let arg, let result else { return false }
                let session = Unmanaged<DwflCoreSession>.fromOpaque(arg).takeUnretainedValue()
                guard let word = session.threadState?.memory.word(at: address) else { return false }
                result.pointee = word
                return true
            },
            set_initial_registers: { thread, threadArgument in
                guard let thread, let threadArgument else { return false }
                let registers = threadArgument.assumingMemoryBound(to: Dwarf_Word.self)
                // One at a time, as libdwfl's core reader sets them: a number the backend does
                // not unwind with is skipped, not an error.
                for number in 0..<DwflCoreSession.threadRegisterCount {
                    _ = dwfl_thread_state_registers(thread, Int32(number), 1, registers + number)
                }
                return true
            },
            detach: nil, thread_detach: nil))
        threadState = state
        threadRegisters = registers
        threadCallbacks = callbacks
        guard dwfl_attach_state(dwfl, elf, pid_t(state.pid), callbacks, Unmanaged.passUnretained(self).toOpaque()) else {
            // libdwfl's own attach says what is wrong, as before.
            threadState = nil
            return false
        }
        pid = Int64(state.pid)
        return true
    }

    /// The threads and memory devkit's callbacks answer from, for a little-endian 64-bit
    /// x86-64 core whose first `PT_NOTE` segment (the only one libdwfl reads threads from)
    /// holds an `NT_PRPSINFO` and whose `NT_PRPSINFO` and `NT_PRSTATUS` notes are all named
    /// "CORE" and of the kernel's sizes; nil for any other core, which libdwfl attaches itself
    /// (its rules for odd notes, other machines and damaged cores stay its own).
    private func ownThreadState() -> CoreThreadState? {
        guard machine == .x86_64, let ident = elf_getident(elf, nil), ident[Int(EI_CLASS)] == UInt8(ELFCLASS64),
              ident[Int(EI_DATA)] == UInt8(ELFDATA2LSB), UInt32(1).littleEndian == 1 else { return nil }
        var size = 0
        guard let raw = elf_rawfile(elf, &size) else { return nil }
        var count = 0
        guard elf_getphdrnum(elf, &count) == 0 else { return nil }
        var loads: [(address: UInt64, memorySize: UInt64, offset: UInt64, align: UInt64)] = []
        var noteData: UnsafeMutablePointer<Elf_Data>?
        for index in 0..<count {
            var header = GElf_Phdr()
            // libdwfl's reader skips a header it cannot read; a core with one is left to it.
            guard gelf_getphdr(elf, Int32(clamping: index), &header) != nil else { return nil }
            if header.p_type == UInt32(PT_LOAD) {
                loads.append((header.p_vaddr, header.p_memsz, header.p_offset, header.p_align))
            } else if header.p_type == UInt32(PT_NOTE), noteData == nil {
                guard let offset = Int64(exactly: header.p_offset), let length = Int(exactly: header.p_filesz),
                      let data = elf_getdata_rawchunk(elf, offset, length, header.p_align == 8 ? ELF_T_NHDR8 : ELF_T_NHDR) else { return nil }
                noteData = data
            }
        }
        guard let noteData else { return nil }
        var pid: Int32?
        var threads: [CoreThreadState.Thread] = []
        var odd = false
        Self.forEachNote(in: noteData) { note, name, descriptor in
            guard note.n_type == UInt32(NT_PRSTATUS) || note.n_type == UInt32(NT_PRPSINFO) else { return true }
            guard note.n_namesz == 5, memcmp(name, "CORE", 5) == 0 else { odd = true; return false }
            if note.n_type == UInt32(NT_PRPSINFO) {
                guard descriptor.count == CoreThreadState.prpsinfoSize else { odd = true; return false }
                if pid == nil { pid = Int32(littleEndian: descriptor.loadUnaligned(fromByteOffset: CoreThreadState.prpsinfoPidOffset, as: Int32.self)) }
                return true
            }
            guard descriptor.count == CoreThreadState.x86_64PrstatusSize else { odd = true; return false }
            let tid = Int32(littleEndian: descriptor.loadUnaligned(fromByteOffset: CoreThreadState.prstatusPidOffset, as: Int32.self))
            let registers = CoreThreadState.x86_64Registers.map {
                UInt64(littleEndian: descriptor.loadUnaligned(fromByteOffset: CoreThreadState.prstatusRegistersOffset + 8 * $0, as: UInt64.self))
            }
            threads.append(CoreThreadState.Thread(tid: tid, registers: registers))
            return true
        }
        // Without NT_PRPSINFO libdwfl refuses the core: its error stands.
        guard !odd, let pid else { return nil }
        return CoreThreadState(pid: pid, threads: threads,
                               memory: CoreMemory(file: UnsafeRawBufferPointer(start: raw, count: size), loads: loads))
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
                  data.pointee.d_buf != nil else { skipped += 1; continue }
            Self.forEachNote(in: data) { note, name, descriptor in
                guard notes.count < limits.maxNotes else { return false }
                if types.contains(note.n_type), note.n_namesz == 5, memcmp(name, "CORE", 4) == 0,
                   descriptor.count <= limits.maxNoteDescriptor {
                    notes.append(CoreNote(type: note.n_type, descriptor: Array(descriptor)))
                }
                return true
            }
        }
        return (notes, skipped)
    }

    /// The notes of one `PT_NOTE` segment's data, in order, until `body` returns false:
    /// each note's header, name and descriptor (`gelf_getnote`).
    private static func forEachNote(in data: UnsafeMutablePointer<Elf_Data>,
                                    _ body: (GElf_Nhdr, UnsafeRawPointer, UnsafeRawBufferPointer) -> Bool) {
        guard let base = data.pointee.d_buf else { return }
        var position = 0
        while position < data.pointee.d_size {
            var note = GElf_Nhdr()
            var nameOffset = 0
            var descriptorOffset = 0
            let next = gelf_getnote(data, position, &note, &nameOffset, &descriptorOffset)
            // Invariant: gelf_getnote returns 0 at the end or on a note that overruns the
            // segment, and moves strictly forward otherwise.
            guard next > position else { return }
            position = next
            let descriptor = UnsafeRawBufferPointer(start: base + descriptorOffset, count: Int(note.n_descsz))
            guard body(note, UnsafeRawPointer(base + nameOffset), descriptor) else { return }
        }
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
        let collector = ThreadCollector(limits: limits, stackPointer: machine.stackPointerDWARFRegister, memory: threadState?.memory)
        let rc = searchContext.withInstalled {
            dwfl_getthreads(dwfl, { thread, arg in
                guard let thread, let arg else { return Int32(DWARF_CB_ABORT) }
                let collector = Unmanaged<ThreadCollector>.fromOpaque(arg).takeUnretainedValue()
                guard collector.threads.count < collector.limits.maxThreads else {
                    collector.truncated = true
                    return Int32(DWARF_CB_ABORT)
                }
                collector.begin(tid: Int64(dwfl_thread_tid(thread)))
                collector.memory?.clearFailure()
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
                // A read devkit's memory reader refused leaves no libdwfl error to tell: its own says why.
                let message = collector.memory?.lastFailure?.message ?? DwflCoreSession.lastDwflMessage()
                if rc == -1, collector.current.stopReason == nil, !collector.current.frames.isEmpty {
                    collector.current.stopReason = message
                } else if rc == -1, collector.current.stopReason == nil {
                    collector.current.stopReason = "no frames: \(message)"
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
    /// devkit's memory reader, when its callbacks attached the threads.
    let memory: CoreMemory?
    var threads: [CoreThreadStack] = []
    var current = CoreThreadStack(tid: 0, frames: [])
    var truncated = false
    /// The previous frame's PC and stack pointer: a frame identical to it means the unwinder
    /// is going round in a loop (corrupt stack or CFI) and would otherwise run to the cap.
    private var previous: (pc: UInt64, stackPointer: UInt64)?

    init(limits: CoreWalkLimits, stackPointer: UInt32?, memory: CoreMemory?) {
        self.limits = limits
        self.stackPointer = stackPointer
        self.memory = memory
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

// MARK: - find_elf and find_debuginfo

/// What `findElf` and `findDebuginfo` search (libdwfl's callbacks take no context argument),
/// made visible to them through a thread-local slot while libdwfl runs on this thread.
private final class SearchContext {
    let searchPaths: [String]
    let executable: String?
    let locator: DebugFileLocator

    init(searchPaths: [String], executable: String?) {
        self.searchPaths = searchPaths
        self.executable = executable
        locator = DebugFileLocator(debugDirectories: searchPaths)
    }

    /// Runs `body` with this context installed for the calling thread, restoring the previous one.
    func withInstalled<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        let saved = pthread_getspecific(searchContextKey)
        pthread_setspecific(searchContextKey, Unmanaged.passUnretained(self).toOpaque())
        // libdwfl also opens paths the core names outside find_elf (NT_FILE notes, the link
        // map): the guard keeps a FIFO or a device there from blocking it.
        open_guard_enter()
        defer {
            open_guard_leave()
            pthread_setspecific(searchContextKey, saved)
        }
        return try body()
    }

    static var current: SearchContext? {
        pthread_getspecific(searchContextKey).map { Unmanaged<SearchContext>.fromOpaque($0).takeUnretainedValue() }
    }

    /// libdwfl's `find_elf`: the module's file, handed over as libdwfl wants it (it takes
    /// ownership of the fd, the Elf and the malloc'd name).
    func openImage(module: OpaquePointer, name: String, fileName: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
                   elfOut: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
        let buildID = DwflCoreSession.buildID(of: module)
        guard let found = image(named: name, buildID: buildID, includingRecordedPath: true) else { return -1 }
        fileName?.pointee = strdup(found.path)
        elfOut?.pointee = found.elf
        return found.fd
    }

    /// The module's file, in the order eu-stack looks: the executable the user gave (when its
    /// build-id matches, or its name does and the core records no build-id), the debug
    /// directories' `.build-id/xx/rest`, the path the core recorded, then the search paths by
    /// base name. A file of another build would unwind and symbolicate wrongly, so a build-id
    /// the core records must match. The caller owns the returned fd and Elf.
    func image(named name: String, buildID expected: [UInt8], includingRecordedPath: Bool) -> (path: String, fd: Int32, elf: OpaquePointer)? {
        let base = name.hasPrefix("[") ? nil : name.split(separator: "/").last.map(String.init)
        var paths: [String] = []
        if let executable, !expected.isEmpty || executable.split(separator: "/").last.map(String.init) == base {
            paths.append(executable)
        }
        paths += locator.imageCandidates(buildID: expected)
        if includingRecordedPath, name.hasPrefix("/") { paths.append(name) }
        if let base, !base.isEmpty {
            paths += searchPaths.map { $0.hasSuffix("/") ? $0 + base : $0 + "/" + base }
        }
        for path in paths {
            if let found = Self.openELF(path, buildID: expected) { return (path, found.fd, found.elf) }
        }
        return nil
    }

    /// libdwfl's `find_debuginfo`: a separate debug file by build-id or `.gnu_debuglink`
    /// (`DebugFileLocator`'s order), checked by build-id, or by the link's CRC without one.
    func openDebugFile(module: OpaquePointer, mainFile: String, debugLink: String?, crc: UInt32,
                       fileName: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
        let buildID = DwflCoreSession.buildID(of: module)
        for path in locator.candidates(binaryPath: mainFile, buildID: buildID.isEmpty ? nil : buildID, debugLink: debugLink) {
            if buildID.isEmpty {
                guard let mapped = try? MappedFile(path: path),
                      CRC32.checksum(mapped.bytes) == crc else { continue }
            }
            guard let found = Self.openELF(path, buildID: buildID) else { continue }
            // libdwfl opens its own Elf on the descriptor it is given.
            elf_end(found.elf)
            fileName?.pointee = strdup(path)
            return found.fd
        }
        return -1
    }

    /// `path` opened through InputFile (regular files only, size capped) as an ELF file whose
    /// build-id is `expected` (any, when `expected` is empty).
    private static func openELF(_ path: String, buildID expected: [UInt8]) -> (fd: Int32, elf: OpaquePointer)? {
        guard let fd = try? InputFile.open(path, kind: .mapped).fd else { return nil }
        guard let elf = elf_begin(fd, ELF_C_READ_MMAP, nil) else {
            close(fd)
            return nil
        }
        var found: UnsafeRawPointer?
        let foundLength = dwelf_elf_gnu_build_id(elf, &found)
        let foundBytes = found.map { Array(UnsafeRawBufferPointer(start: $0, count: max(0, foundLength))) } ?? []
        guard elf_kind(elf) == ELF_K_ELF, expected.isEmpty || foundBytes == expected else {
            elf_end(elf)
            close(fd)
            return nil
        }
        return (fd, elf)
    }

    /// The search-path file for a module whose own file libdwfl did not open from disk (it
    /// may have rebuilt the module from the core's memory, which unwinds but leaves the
    /// core's stale path as the module's file): the image then names the file devkit can
    /// symbolicate with.
    func path(forModuleNamed name: String, buildID: [UInt8]) -> String? {
        guard let found = image(named: name, buildID: buildID, includingRecordedPath: false) else { return nil }
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

/// libdwfl's `find_elf`, instead of `dwfl_build_id_find_elf` (which opens the path a core
/// records with a blocking `open`): see `SearchContext.image(named:buildID:includingRecordedPath:)`.
private let findElf: @convention(c) (
    OpaquePointer?, UnsafeMutablePointer<UnsafeMutableRawPointer?>?, UnsafePointer<CChar>?, Dwarf_Addr,
    UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, UnsafeMutablePointer<OpaquePointer?>?
) -> Int32 = { module, _, name, _, fileName, elfOut in
    guard let module, let name, let context = SearchContext.current else {
        errno = ENOENT
        return -1
    }
    let fd = context.openImage(module: module, name: String(cString: name), fileName: fileName, elfOut: elfOut)
    if fd < 0 { errno = ENOENT }
    return fd
}

/// libdwfl's `find_debuginfo`, instead of `dwfl_standard_find_debuginfo` (which opens debuglink
/// siblings with a blocking `open`): see `SearchContext.openDebugFile`.
private let findDebuginfo: @convention(c) (
    OpaquePointer?, UnsafeMutablePointer<UnsafeMutableRawPointer?>?, UnsafePointer<CChar>?, Dwarf_Addr,
    UnsafePointer<CChar>?, UnsafePointer<CChar>?, GElf_Word, UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> Int32 = { module, _, moduleName, _, fileName, debugLink, crc, debugFileName in
    guard let module, let context = SearchContext.current,
          let mainFile = (fileName ?? moduleName).map({ String(cString: $0) }) else {
        errno = ENOENT
        return -1
    }
    let fd = context.openDebugFile(module: module, mainFile: mainFile, debugLink: debugLink.map { String(cString: $0) },
                                   crc: crc, fileName: debugFileName)
    if fd < 0 { errno = ENOENT }
    return fd
}
