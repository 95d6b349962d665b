/// What devkit's own libdwfl thread callbacks answer from (`DwflCoreSession` attaches them
/// with `dwfl_attach_state` in place of `dwfl_core_file_attach`'s): the threads of the core's
/// first `PT_NOTE` segment in note order, each with its initial DWARF registers, and the
/// process's memory. Made only for cores whose notes are plainly laid out (see
/// `DwflCoreSession.ownThreadState`); any other core keeps libdwfl's own callbacks.
final class CoreThreadState {
    struct Thread {
        /// `pr_pid` of the thread's `NT_PRSTATUS`, as libdwfl reads it (a signed 32-bit value).
        var tid: Int32
        /// DWARF registers 0 ..< registers.count.
        var registers: [UInt64]
    }

    let pid: Int32
    let threads: [Thread]
    let memory: CoreMemory

    init(pid: Int32, threads: [Thread], memory: CoreMemory) {
        self.pid = pid
        self.threads = threads
        self.memory = memory
    }

    /// x86-64's DWARF registers 0–16 (rax, rdx, rcx, rbx, rsi, rdi, rbp, rsp, r8–r15, rip) from
    /// `user_regs_struct` as `NT_PRSTATUS` holds it (r15, r14, r13, r12, rbp, rbx, r11, r10, r9,
    /// r8, rax, rcx, rdx, rsi, rdi, orig_rax, rip, cs, eflags, rsp, …): the registers libdwfl's
    /// x86-64 backend takes from the note for unwinding (its frame registers are these 17; the
    /// PC is rip's value, the return-address column).
    static let x86_64Registers = [10, 12, 11, 5, 13, 14, 4, 19, 9, 8, 7, 6, 3, 2, 1, 0, 16]

    /// `NT_PRSTATUS` of a 64-bit Linux process: `pr_pid` at 32, `pr_reg` at 112, 336 bytes on x86-64.
    static let prstatusPidOffset = 32
    static let prstatusRegistersOffset = 112
    static let x86_64PrstatusSize = 336
    /// `NT_PRPSINFO` of a 64-bit Linux process: `pr_pid` at 24, 136 bytes.
    static let prpsinfoPidOffset = 24
    static let prpsinfoSize = 136
}
