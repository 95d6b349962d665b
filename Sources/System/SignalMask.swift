#if canImport(Glibc)
import Glibc
#endif

/// A set of signals (`sigset_t`): the mask a thread blocks, or the one a child starts with.
public struct SignalMask: Sendable {
    var set = sigset_t()

    /// The signals in `signals` (`sigemptyset`, `sigaddset`); numbers outside 1...64 are ignored.
    public init(_ signals: [Int32] = []) {
        sigemptyset(&set)
        for signal in signals where signal > 0 { sigaddset(&set, signal) }
    }

    /// This set without `signals` (`sigdelset`).
    public func removing(_ signals: [Int32]) -> SignalMask {
        var copy = self
        for signal in signals where signal > 0 { sigdelset(&copy.set, signal) }
        return copy
    }

    /// Blocks this set's signals in the calling thread (`pthread_sigmask(SIG_BLOCK)`), so they
    /// queue for `wait(timeout:)` instead of running handlers; returns the mask before.
    public func block() -> SignalMask {
        var blocked = set
        var previous = SignalMask()
        pthread_sigmask(SIG_BLOCK, &blocked, &previous.set)
        return previous
    }

    /// Makes this the calling thread's mask (`pthread_sigmask(SIG_SETMASK)`): undoes `block()`.
    public func restore() {
        var mask = set
        pthread_sigmask(SIG_SETMASK, &mask, nil)
    }

    /// A signal taken from the queue by `wait(timeout:)`.
    public struct Delivery: Sendable, Equatable {
        /// The signal number.
        public var signal: Int32
        /// True when the kernel sent it (`SI_KERNEL`): a terminal's Ctrl-C reaches the whole
        /// process group, the child included, and needs no forwarding.
        public var fromKernel: Bool
    }

    /// Waits up to `timeout` seconds for one of this set's (blocked) signals and takes it
    /// (`sigtimedwait`); nil when the time passed or a signal outside the set interrupted.
    public func wait(timeout: Double) -> Delivery? {
        var waited = set
        let seconds = min(max(timeout, 0), 86_400)
        var time = timespec(tv_sec: Int(seconds), tv_nsec: Int((seconds - Double(Int(seconds))) * 1e9))
        var info = siginfo_t()
        let signal = sigtimedwait(&waited, &info, &time)
        guard signal > 0 else { return nil }
        return Delivery(signal: signal, fromKernel: info.si_code == 0x80 /* SI_KERNEL */)
    }
}
