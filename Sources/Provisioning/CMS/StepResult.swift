import BinaryReading
import System
import Crypto
import SwiftASN1
import X509

public enum StepResult: Sendable, Equatable {
    case valid
    case invalid(String)
}
