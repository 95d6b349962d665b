internal import SymbolCacheFormat
import ElfUtils
import System
import ObjectFile

/// Strings stored once in one byte blob; an id is an index into `spans`.
struct StringTable: @unchecked Sendable {
    let spans: UnsafeBufferPointer<AddressIndex.StringSpan>
    let blob: UnsafeRawBufferPointer
    static let none: UInt32 = DKS_NO_STRING

    func string(_ id: UInt32) -> String? {
        guard id != Self.none, Int(id) < spans.count else { return nil }
        return String(decoding: span(id), as: UTF8.self)
    }

    /// The bytes of string `id`, which must be below `spans.count` (spans were checked to lie
    /// inside the blob when the index was opened).
    func span(_ id: UInt32) -> UnsafeRawBufferPointer {
        let span = spans[Int(id)]
        return UnsafeRawBufferPointer(rebasing: blob[Int(span.offset)..<Int(span.offset) + Int(span.length)])
    }
}
