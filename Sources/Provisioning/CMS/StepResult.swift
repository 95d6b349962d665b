public enum StepResult: Sendable, Equatable {
    case valid
    case invalid(String)
}
