/// One note of the core (`PT_NOTE`), owner `CORE`, with its descriptor copied out.
struct CoreNote {
    /// `NT_PRSTATUS`, `NT_PRPSINFO`, `NT_SIGINFO`, …
    var type: UInt32
    var descriptor: [UInt8]
}
