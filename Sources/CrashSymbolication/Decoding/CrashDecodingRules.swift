import CrashReport
import FrameModel
import Symbolication

/// Every rule, in the order their findings are shown (the most telling first).
public enum CrashDecodingRules {
    public static let all: [any CrashDecodingRule] = [
        SwiftRuntimeTrapRule(),
        ObjCSelectorRule(),
        NullDereferenceRule(),
        FaultAddressRule(),
        PoisonPatternRule(),
        PointerBitsRule(),
        RegisterPointerRule(),
    ]
}
