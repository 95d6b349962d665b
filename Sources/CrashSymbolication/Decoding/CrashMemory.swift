import CrashReport
import Symbolication

/// Answers "what is at this address" for the decoding rules. The symbolicator's answer comes
/// from the images' files; rule examples give a table instead.
public protocol CrashMemory: Sendable {
    /// nil: the address is in no image of the report.
    func describe(_ address: UInt64) -> AddressInfo?
}
