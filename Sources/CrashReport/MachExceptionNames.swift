/// Names for the numbers MetricKit and KSCrash write where Apple's own reports write names:
/// Mach exception types (`<mach/exception_types.h>`) and Darwin signals (`<sys/signal.h>`,
/// which differ from Linux's: SIGBUS is 10 there, 7 on Linux).
enum MachExceptionNames {
    static func exceptionType(_ number: Int64) -> String? {
        switch number {
        case 1: "EXC_BAD_ACCESS"
        case 2: "EXC_BAD_INSTRUCTION"
        case 3: "EXC_ARITHMETIC"
        case 4: "EXC_EMULATION"
        case 5: "EXC_SOFTWARE"
        case 6: "EXC_BREAKPOINT"
        case 7: "EXC_SYSCALL"
        case 8: "EXC_MACH_SYSCALL"
        case 9: "EXC_RPC_ALERT"
        case 10: "EXC_CRASH"
        case 11: "EXC_RESOURCE"
        case 12: "EXC_GUARD"
        case 13: "EXC_CORPSE_NOTIFY"
        default: nil
        }
    }

    static func darwinSignal(_ number: Int64) -> String? {
        switch number {
        case 1: "SIGHUP"
        case 2: "SIGINT"
        case 3: "SIGQUIT"
        case 4: "SIGILL"
        case 5: "SIGTRAP"
        case 6: "SIGABRT"
        case 7: "SIGEMT"
        case 8: "SIGFPE"
        case 9: "SIGKILL"
        case 10: "SIGBUS"
        case 11: "SIGSEGV"
        case 12: "SIGSYS"
        case 13: "SIGPIPE"
        case 14: "SIGALRM"
        case 15: "SIGTERM"
        case 24: "SIGXCPU"
        case 25: "SIGXFSZ"
        case 30: "SIGUSR1"
        case 31: "SIGUSR2"
        default: nil
        }
    }
}
