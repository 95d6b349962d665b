public struct CrashException: Hashable, Sendable {
    /// `EXC_BAD_ACCESS`, `EXC_CRASH`, …
    public var type: String?
    /// `SIGSEGV`, `SIGABRT`, …
    public var signal: String?
    /// The codes as written (`0x0000000000000001, 0x0000000000000000`).
    public var codes: String?
    /// `KERN_INVALID_ADDRESS at 0x0`, `Exception Reason:` or the termination reason.
    public var reason: String?
    /// The address whose access faulted (`KERN_INVALID_ADDRESS at 0x18`, a core's
    /// `siginfo.si_addr`, Swift's `Bad pointer dereference at 0x…`), when the report says.
    public var faultAddress: UInt64?

    public init() {}
}
