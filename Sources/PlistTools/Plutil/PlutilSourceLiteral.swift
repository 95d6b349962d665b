import PropertyList

/// `plutil -convert swift|objc`: the property list as a Swift or Objective-C literal
/// (`let Info : [String : Any] = [ … ]`, `NSDictionary * const Info = @{ … };`), keys sorted as
/// plutil sorts them, four-space indentation, a trailing comma after every element.
/// Strings are escaped for the language (swift-corelibs' plutil leaves `\` and newlines raw).
enum PlutilSourceLiteral {
    enum Language { case swift, objc }

    /// The source for `value`, named after `file` (its base name without extension, made an
    /// identifier).
    static func render(_ value: PlistValue, language: Language, file: String) -> String {
        let name = identifier(for: file)
        var out = "/// Generated from \(file.split(separator: "/").last.map(String.init) ?? file)\n"
        switch language {
        case .swift:
            let type = switch value {
            case .dictionary: "[String : Any]"
            case .array: "[Any]"
            default: "Any"
            }
            out += "let \(name) : \(type) = "
        case .objc:
            let type = switch value {
            case .dictionary: "NSDictionary"
            case .array: "NSArray"
            default: "id"
            }
            out += "__attribute__((visibility(\"hidden\")))\n\(type) * const \(name) = "
        }
        write(value, language: language, depth: 0, into: &out)
        out += language == .objc ? ";\n" : "\n"
        return out
    }

    /// `Info-iOS.plist` → `Info_iOS`; a leading digit gets an underscore.
    static func identifier(for file: String) -> String {
        var base = file.split(separator: "/").last.map(String.init) ?? file
        if let dot = base.lastIndex(of: "."), dot != base.startIndex { base = String(base[..<dot]) }
        var name = String(base.unicodeScalars.map { scalar -> Character in
            let ok = ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar) || scalar == "_"
            return ok ? Character(scalar) : "_"
        })
        if name.isEmpty || name.first!.isNumber { name = "_" + name }
        return name
    }

    private static func write(_ value: PlistValue, language: Language, depth: Int, into out: inout String) {
        let objc = language == .objc
        let indent = String(repeating: "    ", count: depth + 1)
        let closingIndent = String(repeating: "    ", count: depth)
        switch value {
        case .string(let string):
            out += (objc ? "@" : "") + quoted(string, objc: objc)
        case .integer(let integer):
            out += (objc ? "@" : "") + integer.description
        case .real(let real):
            out += (objc ? "@" : "") + real.description
        case .bool(let bool):
            out += objc ? (bool ? "@YES" : "@NO") : (bool ? "true" : "false")
        case .date(let date):
            out += objc ? "[NSDate dateWithTimeIntervalSinceReferenceDate:\(date.secondsSinceReferenceDate)]"
                : "Date(timeIntervalSinceReferenceDate: \(date.secondsSinceReferenceDate))"
        case .data(let bytes):
            let list = bytes.map { "0x" + (($0 < 16) ? "0" : "") + String($0, radix: 16) }
            out += objc ? "[NSData dataWithBytes:(const unsigned char[]){\(list.joined(separator: ", "))} length:\(bytes.count)]"
                : "Data([\(list.joined(separator: ", "))])"
        case .uid(let uid):
            out += (objc ? "@" : "") + "\(uid)"
        case .array(let items):
            out += objc ? "@[\n" : "[\n"
            for item in items {
                out += indent
                write(item, language: language, depth: depth + 1, into: &out)
                out += ",\n"
            }
            out += closingIndent + "]"
        case .dictionary(let dictionary):
            out += objc ? "@{\n" : (dictionary.isEmpty ? "[:" : "[\n")
            for key in dictionary.keys.sorted() {
                out += indent + (objc ? "@" : "") + quoted(key, objc: objc) + " : "
                write(dictionary[key]!, language: language, depth: depth + 1, into: &out)
                out += ",\n"
            }
            out += (dictionary.isEmpty && !objc ? "" : closingIndent) + (objc ? "}" : "]")
        }
    }

    /// A string literal: quotes, backslashes and control characters escaped; Swift's are
    /// `PlistPrinter.quoted`'s (`\u{1B}`), C's take three-digit octal (`\033`), which unlike
    /// `\x` cannot swallow the digit after it.
    private static func quoted(_ text: String, objc: Bool) -> String {
        guard objc else { return PlistPrinter.quoted(text) }
        return PlistPrinter.quoted(text) { value in
            let octal = String(value, radix: 8)
            return "\\" + String(repeating: "0", count: 3 - octal.count) + octal
        }
    }
}
