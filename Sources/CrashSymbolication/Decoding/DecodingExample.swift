import CrashReport
import FrameModel
import Symbolication

/// A crash reduced to what a rule looks at, and the messages expected from the rule.
public struct DecodingExample: Sendable {
    public var crash: ExampleCrash
    public var expected: [String]

    public init(_ crash: ExampleCrash, expect expected: [String]) {
        self.crash = crash
        self.expected = expected
    }
}
