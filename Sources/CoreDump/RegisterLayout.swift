/// Register names for `NT_PRSTATUS`'s `pr_reg`, per machine, in the kernel's
/// `user_regs_struct` order, and the order devkit lists them in (the way lldb and Apple's
/// reports do: instruction and stack pointers near the front).
enum RegisterLayout {
    /// x86_64 `struct user_regs_struct` (arch/x86/include/asm/user_64.h).
    static let x86_64InKernelOrder = [
        "r15", "r14", "r13", "r12", "rbp", "rbx", "r11", "r10", "r9", "r8", "rax", "rcx", "rdx",
        "rsi", "rdi", "orig_rax", "rip", "cs", "eflags", "rsp", "ss", "fs_base", "gs_base",
        "ds", "es", "fs", "gs",
    ]
    /// The order x86_64 registers are listed in.
    static let x86_64Listed = [
        "rip", "rsp", "rbp", "rax", "rbx", "rcx", "rdx", "rsi", "rdi", "r8", "r9", "r10", "r11",
        "r12", "r13", "r14", "r15", "eflags", "orig_rax", "cs", "ss", "fs_base", "gs_base",
        "ds", "es", "fs", "gs",
    ]
    /// aarch64 `struct user_pt_regs`: x0…x30, sp, pc, pstate.
    static let aarch64InKernelOrder = (0...30).map { "x\($0)" } + ["sp", "pc", "pstate"]

    /// The register names of `machine` in `pr_reg` order and in listing order; nil for
    /// machines devkit has no layout for (their threads are listed without registers).
    static func names(for machine: CoreMachine) -> (kernelOrder: [String], listed: [String])? {
        switch machine {
        case .x86_64: (x86_64InKernelOrder, x86_64Listed)
        case .aarch64: (aarch64InKernelOrder, aarch64InKernelOrder)
        case .other: nil
        }
    }

    /// For each listed x86_64 register, its position in `pr_reg`: worked out once, not by a
    /// dictionary of names per thread (46,000 instructions a thread, 6 % of a warm core run).
    static let x86_64ListedPositions = x86_64Listed.map { name in x86_64InKernelOrder.firstIndex(of: name)! }
    static let aarch64ListedPositions = Array(aarch64InKernelOrder.indices)

    /// `words` (from `pr_reg`) named and put in listing order.
    static func registers(_ words: [UInt64], machine: CoreMachine) -> [(name: String, value: UInt64)] {
        guard let (kernelOrder, listed) = names(for: machine), words.count >= kernelOrder.count else { return [] }
        let positions = machine == .x86_64 ? x86_64ListedPositions : aarch64ListedPositions
        return zip(listed, positions).map { ($0, words[$1]) }
    }
}
