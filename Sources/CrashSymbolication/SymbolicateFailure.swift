import Diagnostics

/// `devkit symbolicate` did not do everything it was asked (exit status 2).
public struct SymbolicateFailure: Error, Sendable {
    /// What stopped the run; nil when each problem was already reported through `diagnostics`.
    public var problem: Diagnostic?
}
