import CrashReport
import FrameModel
import Symbolication

/// Pieces of frame text every renderer shares.
enum FrameText {
    static func hex(_ value: UInt64) -> String { "0x" + String(value, radix: 16) }

    /// `0x0000000100004010`: addresses padded as Apple's reports write them.
    static func paddedHex(_ value: UInt64, digits: Int = 16) -> String {
        let text = String(value, radix: 16)
        return "0x" + String(repeating: "0", count: max(0, digits - text.count)) + text
    }

    /// `file.c:12` or `file.c:12:5`; nil when the frame has no line.
    static func location(_ frame: SymbolicatedFrame, fullPath: Bool = false, column: Bool = true) -> String? {
        guard let file = frame.file, frame.line > 0 else { return nil }
        let name = fullPath ? file : (file.split(separator: "/").last.map(String.init) ?? file)
        return column && frame.column > 0 ? "\(name):\(frame.line):\(frame.column)" : "\(name):\(frame.line)"
    }

    /// One line per function of a symbolicated address, innermost first: each is the
    /// function's name, the offset for the outermost (`+ 16`), and the source position.
    struct Entry {
        var function: String
        var offset: UInt64?
        var frame: SymbolicatedFrame
        var isInlined: Bool
    }

    static func entries(_ symbols: CrashFrameSymbols) -> [Entry] {
        symbols.frames.enumerated().map { position, frame in
            let outermost = position == symbols.frames.count - 1
            let name = frame.function ?? (outermost ? symbols.symbol : nil) ?? "???"
            return Entry(function: name, offset: outermost ? symbols.offset : nil, frame: frame, isInlined: !outermost)
        }
    }
}
