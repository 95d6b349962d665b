import BinaryReading

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
