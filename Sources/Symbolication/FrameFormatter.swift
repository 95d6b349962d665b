/// Renders the frames of one address in the output styles of the usual tools.
public enum FrameOutputStyle: String, Sendable, CaseIterable {
    /// `llvm-symbolizer`: `function` then `file:line:column` per frame, a blank line after each address.
    case llvm
    /// GNU `addr2line -f -i`: `function` then `file:line` per frame.
    case gnu
    /// macOS `atos`: `function (in Binary) (file:line)` per frame.
    case atos
    /// One JSON object per address and line, shaped like `llvm-symbolizer --output-style=JSON`.
    case json
}

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
        var out = ""
        let mark = verified ? "" : " [unverified]"
        switch style {
        case .llvm:
            for frame in frames {
                out += (frame.function ?? "??") + mark + "\n"
                out += "\(frame.file ?? "??"):\(frame.line):\(frame.column)\n"
            }
            out += "\n"
        case .gnu:
            for frame in frames {
                out += (frame.function ?? "??") + mark + "\n"
                out += "\(frame.file ?? "??"):\(frame.line == 0 ? "?" : String(frame.line))\n"
            }
        case .atos:
            for frame in frames {
                guard let function = frame.function else {
                    out += "0x\(String(address, radix: 16)) (in \(imageName))\(mark)\n"
                    continue
                }
                out += "\(function) (in \(imageName))"
                if let file = frame.file, frame.line > 0 {
                    out += " (\(file.split(separator: "/").last.map(String.init) ?? file):\(frame.line))"
                } else if let start = frame.symbolAddress {
                    out += " + \(address &- start)"
                }
                out += mark + "\n"
            }
        case .json:
            out += "{\"Address\":\"0x\(String(address, radix: 16))\",\"ModuleName\":\(jsonString(imagePath))"
            if !verified { out += ",\"Verified\":false" }
            out += ",\"Symbol\":["
            for (index, frame) in frames.enumerated() {
                if index > 0 { out += "," }
                out += "{\"FunctionName\":\(jsonString(frame.function ?? ""))"
                out += ",\"FileName\":\(jsonString(frame.file ?? ""))"
                out += ",\"Line\":\(frame.line),\"Column\":\(frame.column)"
                out += ",\"Inlined\":\(frame.isInlined)"
                out += ",\"Source\":\"\(frame.source)\""
                if let start = frame.symbolAddress { out += ",\"SymbolOffset\":\(address &- start)" }
                out += "}"
            }
            out += "]}\n"
        }
        return out
    }
}

/// `text` as a JSON string literal.
func jsonString(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case "\n": out += "\\n"
        case "\r": out += "\\r"
        case "\t": out += "\\t"
        default:
            if scalar.value < 0x20 {
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
    }
    return out + "\""
}

/// Parses an address as tools print them: hex with or without `0x`.
public func parseAddress(_ text: Substring) -> UInt64? {
    var digits = text
    if digits.hasPrefix("0x") || digits.hasPrefix("0X") { digits = digits.dropFirst(2) }
    guard !digits.isEmpty, digits.count <= 16 else { return nil }
    return UInt64(digits, radix: 16)
}
