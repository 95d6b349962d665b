import CrashReport
import Symbolication

/// What an address of the crashed process is, as far as the report and the images devkit
/// found can tell (a crash log carries no memory: only the images' files are readable).
public struct AddressInfo: Sendable, Equatable {
    /// The image whose range holds the address.
    public var imageName: String
    /// The image's section (`__TEXT,__objc_methname`, `.rodata`), when its binary was found.
    public var section: String?
    public var kind: BinarySections.Kind?
    /// The function (or data symbol) holding the address, and the offset into it.
    public var symbol: String?
    public var offset: UInt64?
    /// Source position of a code address, when DWARF has it.
    public var location: String?
    /// The C string at the address, for string and constant sections.
    public var string: String?
    /// False when the image's binary could not be read, so nothing more is known.
    public var binaryAvailable: Bool

    public init(imageName: String, section: String? = nil, kind: BinarySections.Kind? = nil, symbol: String? = nil,
                offset: UInt64? = nil, location: String? = nil, string: String? = nil, binaryAvailable: Bool = true) {
        self.imageName = imageName
        self.section = section
        self.kind = kind
        self.symbol = symbol
        self.offset = offset
        self.location = location
        self.string = string
        self.binaryAvailable = binaryAvailable
    }
}
