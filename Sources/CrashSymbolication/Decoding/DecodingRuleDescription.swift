import CrashReport
import FrameModel
import Symbolication

public struct DecodingRuleDescription: Sendable {
    /// `objc.selector`, `fault.null-dereference`, …
    public var id: String
    /// One sentence: what the rule recognises.
    public var summary: String
    /// Reports with the messages the rule must give for them (none: it must stay silent).
    public var examples: [DecodingExample]
}
