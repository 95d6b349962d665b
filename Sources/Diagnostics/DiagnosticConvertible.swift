/// An error that can say what it is as a `Diagnostic`: every error type in devkit conforms, so
/// the command line renders all of them in one place and one format.
public protocol DiagnosticConvertible: Error {
    var diagnostic: Diagnostic { get }
}

extension Diagnostic: DiagnosticConvertible {
    public var diagnostic: Diagnostic { self }
}
