/// One thread's stack as libdwfl unwound it (`dwfl_thread_getframes`).
struct CoreThreadStack {
    var tid: Int64
    var frames: [UnwoundFrame]
    /// Why unwinding stopped early (libdwfl error, a loop, the cap), nil when it ran to the end.
    var stopReason: String?
}
