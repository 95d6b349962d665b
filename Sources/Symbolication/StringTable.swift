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
        let span = spans[Int(id)]
        return String(decoding: UnsafeRawBufferPointer(rebasing: blob[Int(span.offset)..<Int(span.offset + span.length)]), as: UTF8.self)
    }
}
