import OrderedCollections
import PropertyList

/// A JSON object as PropertyList's reader gives it.
typealias OrderedDictionaryView = OrderedDictionary<String, PlistValue>

/// Typed access to JSON values read through PropertyList (the `.ips` and Swift JSON readers):
/// nil when the value has another type, never a trap.
extension PlistValue {
    var string: String? { if case .string(let value) = self { value } else { nil } }
    var integer: PlistInteger? { if case .integer(let value) = self { value } else { nil } }
    var bool: Bool? {
        switch self {
        case .bool(let value): value
        case .integer(let value): value.magnitude != 0
        default: nil
        }
    }
    /// `"0x00007f…"` strings (the Swift backtracer writes addresses so).
    var hexString: UInt64? { string.flatMap { parseHex(Substring($0)) } }
}

/// Reads JSON through PropertyList, turning its error into a `CrashReportError` on the
/// document's own line numbers (`firstLine` is the line the JSON starts on).
///
/// Arrays keep at most `maxJSONArrayElements` elements (the largest count any reader uses):
/// the rest are checked and dropped, each cut array warned about, so a report of 500k frames
/// holds 65,536 of them at most, not all (issue 15 §5). The bytes are read in place.
///
/// `column`: say the column too (MetricKit and KSCrash JSON is often one long line).
func readJSON(_ bytes: ArraySlice<UInt8>, firstLine: Int, what: String, column: Bool = false, maxDepth: Int? = nil,
              warn: (String) -> Void) throws(CrashReportError) -> PlistValue {
    do {
        let result = bytes.withUnsafeBytes { raw in
            Result { () throws(PlistError) in try PropertyListCoding.readJSON(raw, maxArrayElements: maxJSONArrayElements, maxDepth: maxDepth) }
        }
        let document = try result.get()
        for warning in document.warnings { warn("the \(what): \(warning.message)") }
        return document.value
    } catch {
        var line: Int? = nil
        var at = ""
        switch error.position {
        case .text(let errorLine, let errorColumn)?:
            line = errorLine + firstLine - 1
            if column { at = " at column \(errorColumn)" }
        case .byteOffset(let offset)?: if column { at = " at byte \(offset)" }
        default: break
        }
        throw CrashReportError(line: line, message: "the \(what) is not valid JSON\(at): \(error.message)")
    }
}

/// Elements kept of one JSON array: the largest limit a reader applies to one.
let maxJSONArrayElements = max(CrashReportLimits.maxBinaryImages, CrashReportLimits.maxThreads, CrashReportLimits.maxFramesPerThread)

/// An array's length for a message: "65536 or more" when `readJSON` cut it.
func jsonCount(_ array: [PlistValue]) -> String {
    array.count >= maxJSONArrayElements ? "\(array.count) or more" : String(array.count)
}

/// The elements of an untrusted JSON array, at most `limit` of them, each as its object or
/// nil when it is another type (so a reader can keep positions). Warns "`cut`; only the first
/// `limit` are read" for a longer array and "`element(i)` is a T, not an object" for a
/// non-object, the two checks the `.ips` and Swift JSON readers make on every array.
func objects(in array: [PlistValue], limit: Int, cut: @autoclosure () -> String, element: (Int) -> String,
             warn: (String) -> Void) -> [(position: Int, fields: OrderedDictionaryView?)] {
    if array.count > limit { warn("\(cut()); only the first \(limit) are read") }
    return array.prefix(limit).enumerated().map { position, value in
        guard case .dictionary(let fields) = value else {
            warn("\(element(position)) is a \(value.typeName), not an object")
            return (position, nil)
        }
        return (position, fields)
    }
}
