import CrashReport

/// What the core's notes say about the process, decoded once: its name and pid, the
/// signal, the thread that took it, and each thread's registers.
struct CoreFacts {
    var processInfo: ProcessInfoNote?
    var signalInfo: SignalInfoNote?
    var statuses: [ProcessStatusNote] = []
    var machine: CoreMachine

    init(notes: [CoreNote], machine: CoreMachine) {
        self.machine = machine
        let registerCount = RegisterLayout.names(for: machine)?.kernelOrder.count ?? 0
        for note in notes {
            switch note.type {
            case CoreNoteType.processInfo where processInfo == nil:
                processInfo = ProcessInfoNote(note.descriptor)
            // The kernel writes NT_SIGINFO once, for the signalled thread; gdb writes one per
            // thread, the signalled thread's first. Either way the first is the one wanted.
            case CoreNoteType.signalInfo where signalInfo == nil:
                signalInfo = SignalInfoNote(note.descriptor)
            case CoreNoteType.processStatus:
                if let status = ProcessStatusNote(note.descriptor, registerCount: registerCount) { statuses.append(status) }
            default:
                break
            }
        }
    }

    /// The thread that took the signal: both the kernel and gdb write its `NT_PRSTATUS` first;
    /// the first with a pending signal (`pr_cursig`) is preferred in case a writer does not.
    var signalledThread: Int64? {
        (statuses.first { $0.currentSignal != 0 } ?? statuses.first)?.tid
    }

    /// The fatal signal, from `NT_SIGINFO` (with the fault address) or else `pr_cursig`.
    var exception: CrashException? {
        let signal = signalInfo?.signal ?? statuses.first { $0.currentSignal != 0 }?.currentSignal
        guard let signal, signal != 0 else { return nil }
        var exception = CrashException()
        exception.signal = SignalName.of(signal)
        exception.faultAddress = signalInfo?.faultAddress
        if let code = signalInfo?.code {
            exception.codes = "si_code \(code)"
            exception.reason = Self.reason(signal: signal, code: code, address: signalInfo?.faultAddress)
        }
        return exception
    }

    /// `SEGV_MAPERR at 0x0`-style text for the common fault codes.
    private static func reason(signal: Int32, code: Int32, address: UInt64?) -> String? {
        let name: String? = switch (signal, code) {
        case (11, 1): "SEGV_MAPERR"
        case (11, 2): "SEGV_ACCERR"
        case (7, 1): "BUS_ADRALN"
        case (7, 2): "BUS_ADRERR"
        case (4, 1): "ILL_ILLOPC"
        case (8, 1): "FPE_INTDIV"
        default: nil
        }
        guard let name else { return nil }
        return address.map { "\(name) at 0x\(String($0, radix: 16))" } ?? name
    }

    /// `tid`'s registers from its `NT_PRSTATUS`, in listing order; empty when absent.
    func registers(of tid: Int64) -> [(name: String, value: UInt64)] {
        guard let status = statuses.first(where: { $0.tid == tid }) else { return [] }
        return RegisterLayout.registers(status.registerWords, machine: machine)
    }
}
