import BinaryReading

/// The core notes devkit decodes, from their descriptor bytes. Layouts are the Linux 64-bit
/// ones (`struct elf_prstatus`, `elf_prpsinfo`, `siginfo_t`), the same on x86_64 and aarch64;
/// every field read is bounds-checked, so a short descriptor yields nil, never a trap.
enum CoreNoteType {
    /// `NT_PRSTATUS`: one per thread, the thread that took the signal first.
    static let processStatus: UInt32 = 1
    /// `NT_PRPSINFO`: the process's name and arguments.
    static let processInfo: UInt32 = 3
    /// `NT_SIGINFO`: the `siginfo_t` of the signal that killed the process.
    static let signalInfo: UInt32 = 0x5349_4749
}

/// A thread's `NT_PRSTATUS`: its tid, the signal it holds and its general registers.
struct ProcessStatusNote {
    /// `pr_cursig`: the signal being delivered to this thread (0 if none).
    var currentSignal: Int32
    /// `pr_pid`: the thread's tid.
    var tid: Int64
    /// `pr_reg` as 64-bit words, in the kernel's `user_regs_struct` order.
    var registerWords: [UInt64]

    /// `pr_reg` starts after si_signo/si_code/si_errno, pr_cursig (+pad), pr_sigpend,
    /// pr_sighold, four pids and four timevals.
    static let registersOffset = 112

    init?(_ bytes: [UInt8], registerCount: Int) {
        guard let (signal, tid, words) = readDescriptor(bytes, "NT_PRSTATUS", { cursor throws(DecodeError) in
            try cursor.seek(to: 12)
            let signal = try cursor.read(UInt16.self, endian: .little)
            try cursor.seek(to: 32)
            let tid = try cursor.read(UInt32.self, endian: .little)
            // Invariant: the descriptor holds every register the machine's layout names.
            try cursor.seek(to: Self.registersOffset)
            var words: [UInt64] = []
            for _ in 0..<registerCount { words.append(try cursor.read(UInt64.self, endian: .little)) }
            return (signal, tid, words)
        }) else { return nil }
        currentSignal = Int32(signal)
        self.tid = Int64(Int32(bitPattern: tid))
        registerWords = words
    }
}

/// `NT_PRPSINFO`: the process's short name and pid.
struct ProcessInfoNote {
    /// `pr_fname`: the executable's base name, cut at 15 bytes by the kernel.
    var name: String
    /// `pr_pid`.
    var pid: Int64
    /// `pr_psargs`: the command line, cut at 79 bytes, arguments joined by spaces.
    var arguments: String

    init?(_ bytes: [UInt8]) {
        guard let (pid, name, arguments) = readDescriptor(bytes, "NT_PRPSINFO", { cursor throws(DecodeError) in
            try cursor.seek(to: 24)
            let pid = try cursor.read(UInt32.self, endian: .little)
            try cursor.seek(to: 40)
            let name = fixedString(try cursor.readBytes(16))
            let arguments = fixedString(try cursor.readBytes(80))
            return (pid, name, arguments)
        }) else { return nil }
        self.pid = Int64(Int32(bitPattern: pid))
        self.name = name
        self.arguments = arguments
    }
}

/// `NT_SIGINFO`: the signal number, its code and (for fault signals) the faulting address.
struct SignalInfoNote {
    var signal: Int32
    /// `si_code` (`SEGV_MAPERR`, …; negative when sent by a process).
    var code: Int32
    /// `si_addr`, read only for signals that carry an address (SIGILL, SIGTRAP, SIGBUS,
    /// SIGFPE, SIGSEGV): for the others the same bytes are the sender's pid and uid.
    var faultAddress: UInt64?

    init?(_ bytes: [UInt8]) {
        guard let (signal, code, address) = readDescriptor(bytes, "NT_SIGINFO", { cursor throws(DecodeError) in
            let signal = Int32(bitPattern: try cursor.read(UInt32.self, endian: .little))
            try cursor.seek(to: 8)
            let code = Int32(bitPattern: try cursor.read(UInt32.self, endian: .little))
            // si_addr at 16; a short descriptor just has none.
            let address = cursor.count >= 24 ? try { () throws(DecodeError) -> UInt64 in
                try cursor.seek(to: 16)
                return try cursor.read(UInt64.self, endian: .little)
            }() : nil
            return (signal, code, address)
        }) else { return nil }
        self.signal = signal
        self.code = code
        // Linux's generic numbers: SIGILL 4, SIGTRAP 5, SIGBUS 7, SIGFPE 8, SIGSEGV 11.
        faultAddress = [4, 5, 7, 8, 11].contains(signal) && code > 0 ? address : nil
    }
}

/// Reads a note's descriptor through the project's one bounded reader (`ByteCursor`); nil
/// when a field lies past the descriptor's end.
private func readDescriptor<T>(_ bytes: [UInt8], _ section: String, _ body: (inout ByteCursor) throws(DecodeError) -> T) -> T? {
    bytes.withUnsafeBytes { raw in
        var cursor = ByteCursor(raw, section: section)
        do { return try body(&cursor) } catch { return nil }
    }
}

/// A fixed-size, NUL-padded C string field (`pr_fname`, `pr_psargs`), decoded as UTF-8 with repair.
private func fixedString(_ field: UnsafeRawBufferPointer) -> String {
    String(decoding: field.prefix { $0 != 0 }, as: UTF8.self)
}
