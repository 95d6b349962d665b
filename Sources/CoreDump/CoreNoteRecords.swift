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
        guard let signal = bytes.littleEndian(UInt16.self, at: 12),
              let tid = bytes.littleEndian(UInt32.self, at: 32) else { return nil }
        currentSignal = Int32(signal)
        self.tid = Int64(Int32(bitPattern: tid))
        var words: [UInt64] = []
        for index in 0..<registerCount {
            // Invariant: the descriptor holds every register the machine's layout names.
            guard let word = bytes.littleEndian(UInt64.self, at: Self.registersOffset + index * 8) else { return nil }
            words.append(word)
        }
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
        guard let pid = bytes.littleEndian(UInt32.self, at: 24),
              let name = bytes.cString(at: 40, maxLength: 16),
              let arguments = bytes.cString(at: 56, maxLength: 80) else { return nil }
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
        guard let signal = bytes.littleEndian(UInt32.self, at: 0),
              let code = bytes.littleEndian(UInt32.self, at: 8) else { return nil }
        self.signal = Int32(bitPattern: signal)
        self.code = Int32(bitPattern: code)
        // Linux's generic numbers: SIGILL 4, SIGTRAP 5, SIGBUS 7, SIGFPE 8, SIGSEGV 11.
        faultAddress = [4, 5, 7, 8, 11].contains(self.signal) && self.code > 0
            ? bytes.littleEndian(UInt64.self, at: 16) : nil
    }
}

extension [UInt8] {
    /// The little-endian integer at `offset`, nil when it does not fit in the array.
    func littleEndian<T: FixedWidthInteger & UnsignedInteger>(_: T.Type, at offset: Int) -> T? {
        let size = MemoryLayout<T>.size
        guard offset >= 0, offset <= count - size else { return nil }
        var value: T = 0
        for index in 0..<size { value |= T(self[offset + index]) << (8 * index) }
        return value
    }

    /// The NUL-terminated (or `maxLength`-long) string at `offset`, decoded as UTF-8 with repair.
    func cString(at offset: Int, maxLength: Int) -> String? {
        guard offset >= 0, offset <= count - maxLength else { return nil }
        let field = self[offset..<(offset + maxLength)]
        let bytes = field.prefix { $0 != 0 }
        return String(decoding: bytes, as: UTF8.self)
    }
}
