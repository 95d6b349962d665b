import Diagnostics

/// Function names and file paths of one image as the bytes an answer shows: names
/// demangled as asked, both made safe for a terminal (`TerminalText.escaped`), worked out
/// once per string id and then copied straight into the output. Most strings need neither
/// demangling nor escaping, and those are the index's own bytes, not a copy.
///
/// Not thread-safe: one answering loop owns it (`AddressLookupSession`).
final class FrameText {
    /// Where a string's text is: inside the index's string blob or one of `owned`.
    /// `count == -1`: not worked out yet.
    private struct Span {
        var start: UnsafePointer<UInt8>?
        var count: Int
    }

    /// The index whose string ids these are; keeps the string blob alive.
    let source: ImageIndex
    private let index: AddressIndex
    private let demangler: Demangler?
    /// Allocated once, not arrays: a class's array property is checked for exclusive access
    /// on every write, a tenth of a warm lookup's instructions.
    private let names: UnsafeMutableBufferPointer<Span>
    private let files: UnsafeMutableBufferPointer<Span>
    /// Texts that differ from the stored bytes (demangled or escaped), freed with the cache.
    private var owned: [UnsafeMutableBufferPointer<UInt8>] = []
    /// What is shown for a missing name or file.
    private static let unknown: StaticString = "??"

    /// Only ids of records `index` gave are asked for, so their strings were checked.
    init(index: ImageIndex, demangler: Demangler?) {
        source = index
        self.index = index.index
        self.demangler = demangler
        let count = index.index.strings.spans.count
        names = .allocate(capacity: count)
        names.initialize(repeating: Span(start: nil, count: -1))
        files = .allocate(capacity: count)
        files.initialize(repeating: Span(start: nil, count: -1))
    }

    deinit {
        for buffer in owned { buffer.deallocate() }
        names.deallocate()
        files.deallocate()
    }

    /// The text of function name `id` (`??` for none).
    func name(_ id: UInt32) -> UnsafeBufferPointer<UInt8> {
        text(id, isName: true)
    }

    /// The text of file path `id` (`??` for none).
    func file(_ id: UInt32) -> UnsafeBufferPointer<UInt8> {
        text(id, isName: false)
    }

    private func text(_ id: UInt32, isName: Bool) -> UnsafeBufferPointer<UInt8> {
        guard id != StringTable.none, Int(id) < names.count else {
            return UnsafeBufferPointer(start: Self.unknown.utf8Start, count: Self.unknown.utf8CodeUnitCount)
        }
        let known = isName ? names[Int(id)] : files[Int(id)]
        if known.count >= 0 { return UnsafeBufferPointer(start: known.start, count: known.count) }
        let span = make(id, isName: isName)
        if isName { names[Int(id)] = span } else { files[Int(id)] = span }
        return UnsafeBufferPointer(start: span.start, count: span.count)
    }

    private func make(_ id: UInt32, isName: Bool) -> Span {
        let stored = index.strings.span(id)
        let raw = stored.bindMemory(to: UInt8.self)
        // TerminalText.escaped changes only text holding a C0 control, DEL or a C1 control
        // (which starts with 0xC2 in UTF-8); the demangler only names that look mangled
        // (Swift's `$s…`, `_$s…`, `_T0…`, C++'s `_Z…`).
        let needsEscaping = raw.contains { $0 < 0x20 || $0 == 0x7F || $0 == 0xC2 }
        let mayBeMangled = isName && demangler != nil && raw.count >= 2
            && (raw[0] == UInt8(ascii: "$") || (raw[0] == UInt8(ascii: "_") && [UInt8(ascii: "$"), UInt8(ascii: "T"), UInt8(ascii: "Z")].contains(raw[1])))
        guard needsEscaping || mayBeMangled else { return Span(start: raw.baseAddress, count: raw.count) }
        let text = String(decoding: raw, as: UTF8.self)
        var shown = isName ? demangler?.demangle(text) ?? text : text
        // The same test on the demangled bytes before TerminalText, whose scan of a String's
        // UTF-8 view cost more than the demangling of C++ names hundreds of bytes long.
        if shown.withUTF8({ $0.contains { $0 < 0x20 || $0 == 0x7F || $0 == 0xC2 } }) { shown = TerminalText.escaped(shown) }
        let copy = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(shown.utf8.count, 1))
        _ = copy.initialize(from: shown.utf8)
        owned.append(copy)
        return Span(start: UnsafePointer(copy.baseAddress), count: shown.utf8.count)
    }
}
