import CrashReport
import Symbolication

/// The calling-convention families the rules know (which register holds what).
public enum CPUArchitecture: String, Sendable {
    case arm64, arm64e, x86_64, arm, i386, unknown
}
