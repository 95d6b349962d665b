/// One frame of a crash signature: an app image's function, or where no symbols were found,
/// the image and the offset into it.
public struct CrashSignatureFrame: Hashable, Sendable {
    /// The image's name as the log gives it (`MyApp`).
    public var image: String
    /// The function the address is in (the outermost one of an inlined chain: a crash's first
    /// frame and the same place as a return address can differ in inlined calls, not in it).
    public var function: String?
    /// Without `function`: the address's offset from the image's load address.
    public var offset: UInt64?

    public init(image: String, function: String?, offset: UInt64?) {
        self.image = image
        self.function = function
        self.offset = offset
    }

    /// `MyApp load_model`, or `MyApp +0x4394` when unsymbolicated.
    public var description: String {
        if let function { return "\(image) \(function)" }
        return "\(image) " + (offset.map { "+0x" + String($0, radix: 16) } ?? "?")
    }
}
