/// One frame of the log, tied to its image and, when that image was found, to source.
public struct SymbolicatedCrashFrame: Sendable, Equatable {
    /// Index into `report.binaryImages`; nil when no image holds the address.
    public var imageIndex: Int?
    /// The runtime address (from the log, or load address + offset).
    public var address: UInt64?
    public var symbols: CrashFrameSymbols?

    public init(imageIndex: Int? = nil, address: UInt64? = nil, symbols: CrashFrameSymbols? = nil) {
        self.imageIndex = imageIndex
        self.address = address
        self.symbols = symbols
    }
}
