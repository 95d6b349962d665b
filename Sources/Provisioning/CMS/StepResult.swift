import BinaryReading
import System
import SwiftASN1

public enum StepResult: Sendable, Equatable {
    case valid
    case invalid(String)
}
