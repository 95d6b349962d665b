import CrashReport
import Testing

/// `String.containsBytes`, the keyword search of the crash rules and termination reasons,
/// answers as `String.contains` does for ASCII keywords: at the start, the end, in the
/// middle, overlapping partial matches, empty and too-long needles, non-ASCII text around.
@Suite struct ByteSearchTests {
    @Test func sameAnswersAsContains() {
        let texts = ["", "S", "SIGSEGV", "EXC_BAD_ACCESS (SIGSEGV)", "signal SIGSIGSEGV here", "Fatal error: Index out of range",
                     "crashé in café SIGTRAP ✓", "aaab", "per-process-limit", "  jetsam  ", "SIGSEG", "xSIGSEGVx"]
        let needles = ["", "S", "SIGSEGV", "SIGTRAP", "Fatal error", "aab", "jetsam", "per-process-limit", "EXC_BAD_ACCESS (SIGSEGV) and more", "V"]
        for text in texts {
            for needle in needles {
                #expect(text.containsBytes(needle) == text.contains(needle), "\"\(text)\" ∋ \"\(needle)\"")
            }
        }
    }
}
