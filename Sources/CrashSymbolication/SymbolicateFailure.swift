/// `devkit symbolicate` did not do everything it was asked (exit status 2).
public struct SymbolicateFailure: Error, Sendable {
    /// The error line; empty when each problem was already reported through `diagnostics`.
    public var message: String
}
