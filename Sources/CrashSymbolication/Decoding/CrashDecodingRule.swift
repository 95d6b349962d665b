import CrashReport
import FrameModel
import Symbolication

/// One register-decoding rule: a small, documented piece of knowledge about crashes ("x1
/// holds the selector in objc_msgSend"), with examples that are also its tests.
public protocol CrashDecodingRule: Sendable {
    static var description: DecodingRuleDescription { get }
    func decode(_ context: DecodingContext) -> [CrashDecoding]
}

extension CrashDecodingRule {
    public var description: DecodingRuleDescription { Self.description }
}
