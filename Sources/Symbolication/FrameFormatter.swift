import Diagnostics
import FrameModel
import JSONWriter
import System

/// Renders the frames of one address as `llvm-symbolizer`, `addr2line`, `atos` or JSON output do.
public struct FrameFormatter: Sendable {
    public var style: FrameOutputStyle
    /// The image's name as `atos` shows it (its last path component).
    public var imageName: String
    /// The image path for JSON's `ModuleName`.
    public var imagePath: String

    public init(style: FrameOutputStyle, imagePath: String) {
        self.style = style
        self.imagePath = imagePath
        self.imageName = imagePath.split(separator: "/").last.map(String.init) ?? imagePath
    }

    /// The text for `frames` found at `address` (ending with a newline).
    public func render(address: UInt64, frames: [SymbolicatedFrame], verified: Bool = true) -> String {
        var bytes: [UInt8] = []
        render(address: address, frames: frames, verified: verified, into: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends the text for `frames` to `out` (the streaming form: no intermediate strings).
    public func render(address: UInt64, frames: [SymbolicatedFrame], verified: Bool = true, into out: inout [UInt8]) {
        let mark = verified ? "" : " [unverified]"
        switch style {
        case .llvm, .gnu:
            for frame in frames {
                var function = TerminalText.escaped(frame.function ?? "??")
                var file = TerminalText.escaped(frame.file ?? "??")
                function.withUTF8 { function in
                    file.withUTF8 { file in
                        Self.writeLine(style: style, function: function, file: file, line: frame.line, column: frame.column,
                                       verified: verified, to: &out)
                    }
                }
            }
            endAddress(to: &out)
        case .atos:
            let imageName = TerminalText.escaped(imageName)
            var text = ""
            for frame in frames {
                guard let function = frame.function.map(TerminalText.escaped) else {
                    text += "0x\(String(address, radix: 16)) (in \(imageName))\(mark)\n"
                    continue
                }
                text += "\(function) (in \(imageName))"
                if let file = frame.file.map(TerminalText.escaped), frame.line > 0 {
                    text += " (\(file.split(separator: "/").last.map(String.init) ?? file):\(frame.line))"
                } else if let start = frame.symbolAddress {
                    text += " + \(address &- start)"
                }
                text += mark + "\n"
            }
            out.append(contentsOf: text.utf8)
        case .json:
            var text = "{\"Address\":\"0x\(String(address, radix: 16))\",\"ModuleName\":\(Self.jsonQuoted(imagePath))"
            if !verified { text += ",\"Verified\":false" }
            text += ",\"Symbol\":["
            for (index, frame) in frames.enumerated() {
                if index > 0 { text += "," }
                text += "{\"FunctionName\":\(Self.jsonQuoted(frame.function ?? ""))"
                text += ",\"FileName\":\(Self.jsonQuoted(frame.file ?? ""))"
                text += ",\"Line\":\(frame.line),\"Column\":\(frame.column)"
                text += ",\"Inlined\":\(frame.isInlined)"
                text += ",\"Source\":\"\(frame.source)\""
                if let start = frame.symbolAddress { text += ",\"SymbolOffset\":\(address &- start)" }
                text += "}"
            }
            text += "]}\n"
            out.append(contentsOf: text.utf8)
        }
    }

    /// Whether `write(_:style:text:verified:to:)` can write this style: the line
    /// styles, which show only names, files and positions.
    var writesRecords: Bool { style == .llvm || style == .gnu }

    /// Writes one frame (names and paths from `text`) in `style`, `.llvm` or `.gnu` (see
    /// `writesRecords`); `endAddress` after an address's last frame. The same bytes as
    /// `render(address:frames:verified:into:)`, with no `String` made per frame. Static, so a
    /// caller passes the style alone, not a copy of the formatter and its strings per frame.
    static func write(_ record: FrameRecord, style: FrameOutputStyle, text: FrameText, verified: Bool, to out: inout some ByteSink) {
        writeLine(style: style, function: text.name(record.name), file: text.file(record.file), line: record.line, column: record.column,
                  verified: verified, to: &out)
    }

    /// Ends an address's frames written by `write(_:style:text:verified:to:)`: `.llvm` puts a blank line after each.
    func endAddress(to out: inout some ByteSink) {
        if style == .llvm { out.write(UInt8(ascii: "\n")) }
    }

    /// One frame in the `.llvm` style (`function`, then `file:line:column`) or the `.gnu`
    /// style (`file:line`, `?` for an unknown line); `function` and `file` already escaped.
    private static func writeLine(style: FrameOutputStyle, function: UnsafeBufferPointer<UInt8>, file: UnsafeBufferPointer<UInt8>,
                                  line: UInt32, column: UInt32, verified: Bool, to out: inout some ByteSink) {
        out.write(function)
        if !verified { Self.unverifiedMark.withUTF8Buffer { out.write($0) } }
        out.write(UInt8(ascii: "\n"))
        out.write(file)
        out.write(UInt8(ascii: ":"))
        if style == .gnu {
            if line == 0 { out.write(UInt8(ascii: "?")) } else { out.writeDecimal(UInt64(line)) }
        } else {
            out.writeDecimal(UInt64(line))
            out.write(UInt8(ascii: ":"))
            out.writeDecimal(UInt64(column))
        }
        out.write(UInt8(ascii: "\n"))
    }

    private static let unverifiedMark: StaticString = " [unverified]"

    /// `text` as a JSON string literal through devkit's one JSON escaper.
    private static func jsonQuoted(_ text: String) -> String {
        var output = JSONOutput(inline: true)
        output.string(text)
        return String(decoding: output.bytes, as: UTF8.self)
    }
}
