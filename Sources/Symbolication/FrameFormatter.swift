import Diagnostics
import FrameModel
import JSONWriter

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
                        appendLine(function: function, file: file, line: frame.line, column: frame.column, verified: verified, to: &out)
                    }
                }
            }
            if style == .llvm { out.append(UInt8(ascii: "\n")) }
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

    /// Whether `append(_:text:verified:to:)` can write this style: the line
    /// styles, which show only names, files and positions.
    var writesRecords: Bool { style == .llvm || style == .gnu }

    /// Appends one frame (names and paths from `text`) in the `.llvm` or `.gnu` style (see
    /// `writesRecords`); `endAddress` after an address's last frame. The same bytes as
    /// `render(address:frames:verified:into:)`, with no `String` made per frame.
    func append(_ record: FrameRecord, text: FrameText, verified: Bool, to out: inout [UInt8]) {
        appendLine(function: text.name(record.name), file: text.file(record.file), line: record.line, column: record.column,
                   verified: verified, to: &out)
    }

    /// Ends an address's frames written by `append(_:text:verified:to:)`: `.llvm` puts a blank line after each.
    func endAddress(to out: inout [UInt8]) {
        if style == .llvm { out.append(UInt8(ascii: "\n")) }
    }

    /// One frame in the `.llvm` style (`function`, then `file:line:column`) or the `.gnu`
    /// style (`file:line`, `?` for an unknown line); `function` and `file` already escaped.
    private func appendLine(function: UnsafeBufferPointer<UInt8>, file: UnsafeBufferPointer<UInt8>, line: UInt32, column: UInt32,
                            verified: Bool, to out: inout [UInt8]) {
        out.append(contentsOf: function)
        if !verified { out.append(contentsOf: " [unverified]".utf8) }
        out.append(UInt8(ascii: "\n"))
        out.append(contentsOf: file)
        out.append(UInt8(ascii: ":"))
        if style == .gnu {
            if line == 0 { out.append(UInt8(ascii: "?")) } else { appendDecimal(UInt64(line), to: &out) }
        } else {
            appendDecimal(UInt64(line), to: &out)
            out.append(UInt8(ascii: ":"))
            appendDecimal(UInt64(column), to: &out)
        }
        out.append(UInt8(ascii: "\n"))
    }

    /// `value` in decimal, appended in one piece (digits written backwards into a stack buffer).
    private func appendDecimal(_ value: UInt64, to out: inout [UInt8]) {
        if value < 10 { out.append(UInt8(ascii: "0") + UInt8(value)); return }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var start = digits.count
            var rest = value
            while rest > 0 {
                start -= 1
                digits[start] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            }
            out.append(contentsOf: UnsafeMutableBufferPointer(rebasing: digits[start...]))
        }
    }

    /// `text` as a JSON string literal through devkit's one JSON escaper.
    private static func jsonQuoted(_ text: String) -> String {
        var output = JSONOutput(inline: true)
        output.string(text)
        return String(decoding: output.bytes, as: UTF8.self)
    }
}
