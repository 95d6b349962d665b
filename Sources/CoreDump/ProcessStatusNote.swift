import BinaryReading

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
