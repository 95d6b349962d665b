import CrashReport
import FrameModel
import Symbolication

/// A table of address ranges for rule examples.
public struct ExampleMemory: CrashMemory {
    public struct Region: Sendable {
        public var start: UInt64
        public var size: UInt64
        public var info: AddressInfo

        /// A region of `image` whose bytes at `start` are `string` (in `section` of `kind`).
        public static func string(_ string: String, at start: UInt64, image: String = "MyApp",
                                  section: String = "__TEXT,__objc_methname", kind: BinarySections.Kind = .selectorName) -> Region {
            Region(start: start, size: UInt64(string.utf8.count + 1),
                   info: AddressInfo(imageName: image, section: section, kind: kind, string: string))
        }

        /// A function `name` of `image` spanning `size` bytes from `start`.
        public static func function(_ name: String, at start: UInt64, size: UInt64 = 0x100, image: String = "MyApp") -> Region {
            Region(start: start, size: size, info: AddressInfo(imageName: image, section: "__TEXT,__text", kind: .code, symbol: name, offset: 0))
        }

        /// An image devkit did not find: its range is known from the log, its contents are not.
        public static func unreadImage(_ image: String, at start: UInt64, size: UInt64) -> Region {
            Region(start: start, size: size, info: AddressInfo(imageName: image, binaryAvailable: false))
        }
    }

    public var regions: [Region]

    public func describe(_ address: UInt64) -> AddressInfo? {
        guard let region = regions.first(where: { address >= $0.start && address - $0.start < $0.size }) else { return nil }
        var info = region.info
        if info.kind == .code { info.offset = address - region.start }
        if info.string != nil, address != region.start { info.string = nil }
        return info
    }
}
