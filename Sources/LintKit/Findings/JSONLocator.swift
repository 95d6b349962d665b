import Diagnostics

/// Where a value sits in JSON text the JSON reader has already accepted, so that an error
/// about the value's meaning (a baseline entry without a `file`) can name its line and column
/// as a syntax error does. The reader's value model keeps no positions; this walks the text
/// again, only along one path, and only for the error being reported.
///
/// Text the reader accepted is well formed, so the walk does not validate; on anything it does
/// not expect it gives up (nil) rather than guess. Keys are compared as written, so a key
/// spelt with escapes is not found.
struct JSONLocator {
    /// A step into an object (by key) or an array (by index).
    enum Step: Equatable {
        case key(String)
        case index(Int)
    }

    private let bytes: [UInt8]
    private var index = 0
    /// Where the text starts: after a UTF-8 byte-order mark, which the reader skips too (its
    /// positions count from there).
    private let start: Int

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        index = start
    }

    /// The position of the value at `path`, or of its deepest ancestor that exists (so a
    /// missing key points at the object that lacks it); nil when the text cannot be walked.
    static func position(of path: [Step], in bytes: [UInt8]) -> SourcePosition? {
        var locator = JSONLocator(bytes)
        guard let offset = locator.offset(of: path) else { return nil }
        return locator.position(ofOffset: offset)
    }

    private mutating func offset(of path: [Step]) -> Int? {
        skipWhitespace()
        var found = index
        for step in path {
            guard index < bytes.count else { return nil }
            switch (step, bytes[index]) {
            case (.key(let key), UInt8(ascii: "{")):
                guard let offset = enterObject(findingKey: key) else { return found }
                found = offset
            case (.index(let wanted), UInt8(ascii: "[")):
                guard let offset = enterArray(findingIndex: wanted) else { return found }
                found = offset
            default:
                return found
            }
        }
        return found
    }

    /// From `{`: moves to the value of `key` and returns its offset; nil (position unknown
    /// to the caller, which keeps the object's) when the object has no such key.
    private mutating func enterObject(findingKey key: String) -> Int? {
        index += 1
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return nil }
            guard let name = skipString() else { return nil }
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return nil }
            index += 1
            skipWhitespace()
            if name.elementsEqual(key.utf8) { return index }
            guard skipValue() else { return nil }
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ",") else { return nil }
            index += 1
        }
    }

    /// From `[`: moves to element `wanted` and returns its offset; nil when there are fewer.
    private mutating func enterArray(findingIndex wanted: Int) -> Int? {
        index += 1
        var element = 0
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] != UInt8(ascii: "]") else { return nil }
            if element == wanted { return index }
            guard skipValue() else { return nil }
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ",") else { return nil }
            index += 1
            element += 1
        }
    }

    private mutating func skipWhitespace() {
        while index < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[index]) { index += 1 }
    }

    /// From `"`: past the closing quote; the bytes between the quotes as written.
    private mutating func skipString() -> ArraySlice<UInt8>? {
        let contentStart = index + 1
        index += 1
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\\"): index += 2
            case UInt8(ascii: "\""):
                index += 1
                return bytes[contentStart..<(index - 1)]
            default: index += 1
            }
        }
        return nil
    }

    /// Past one value of any kind; containers by counting brackets outside strings, without
    /// recursion.
    private mutating func skipValue() -> Bool {
        guard index < bytes.count else { return false }
        switch bytes[index] {
        case UInt8(ascii: "\""):
            return skipString() != nil
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            var depth = 0
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: "\""):
                    guard skipString() != nil else { return false }
                    continue
                case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    depth -= 1
                    if depth == 0 {
                        index += 1
                        return true
                    }
                default: break
                }
                index += 1
            }
            return false
        default:
            // A number or a literal: up to the next delimiter.
            while index < bytes.count, ![UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), 0x20, 0x0A, 0x0D, 0x09].contains(bytes[index]) {
                index += 1
            }
            return true
        }
    }

    /// 1-based line and byte column, counted as the JSON reader counts them (lines end at LF,
    /// CRLF or a lone CR; from after a byte-order mark).
    private func position(ofOffset offset: Int) -> SourcePosition {
        var line = 1
        var lineStart = start
        var k = start
        while k < offset {
            let c = bytes[k]
            if c == 0x0A || (c == 0x0D && (k + 1 >= bytes.count || bytes[k + 1] != 0x0A)) {
                line += 1
                lineStart = k + 1
            }
            k += 1
        }
        return .text(line: line, column: offset - lineStart + 1)
    }
}
