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
