/// Limits for what one session walks; the core supplies the counts, so they are capped.
struct CoreWalkLimits {
    var maxThreads: Int
    var maxFramesPerThread: Int
    var maxModules: Int
    /// Notes kept (PRSTATUS/PRPSINFO/SIGINFO); a real core has a few per thread.
    var maxNotes: Int
    /// A kept note's descriptor is at most this long (NT_PRSTATUS is 336 or 392 bytes).
    var maxNoteDescriptor: Int
}
