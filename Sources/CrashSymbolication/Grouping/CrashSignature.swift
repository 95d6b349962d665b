/// What makes two crashes the same one for `symbolicate --group`: the exception and the
/// crashed thread's first frames in the app's own images.
public struct CrashSignature: Hashable, Sendable {
    /// `EXC_BAD_ACCESS (SIGSEGV)`, `SIGILL`, or the report's reason when it names neither.
    public var exception: String
    /// The crashed thread's first `CrashGrouping.signatureFrames` frames in app images
    /// (`AppImageRule`), innermost first; when none is in an app image, its first frames.
    public var frames: [CrashSignatureFrame]

    public init(exception: String, frames: [CrashSignatureFrame]) {
        self.exception = exception
        self.frames = frames
    }

    /// One line: `EXC_BAD_ACCESS (SIGSEGV) at MyApp load_model < MyApp controller`.
    public var description: String {
        frames.isEmpty ? exception : "\(exception) at " + frames.map(\.description).joined(separator: " < ")
    }
}
