/// A JSON value for reports: objects keep their members in the order written, so output is
/// deterministic. Written with `JSONWriter`.
public enum JSONValue: Equatable, Sendable {
    /// An object; members in this order (a repeated key is written twice, so do not repeat).
    case object([JSONMember])
    case array([JSONValue])
    case string(String)
    /// A signed integer, written exactly.
    case integer(Int64)
    /// An unsigned integer, written exactly (sizes and addresses above `Int64.max`).
    case unsignedInteger(UInt64)
    /// A finite number in Swift's shortest exact form (`1.0`, `0.1`, `1e-05`); JSON has no
    /// nan or infinity, so those are written as `null`.
    case double(Double)
    case bool(Bool)
    case null

    /// Any integer, exactly: `.integer` when it fits in `Int64`, else `.unsignedInteger`.
    public static func number<T: BinaryInteger>(_ value: T) -> JSONValue {
        if let signed = Int64(exactly: value) { return .integer(signed) }
        return .unsignedInteger(UInt64(clamping: value))
    }

    /// `value`, or `null` when it is nil.
    public static func optional(_ value: JSONValue?) -> JSONValue { value ?? .null }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral {
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int64) { self = .integer(value) }
    public init(floatLiteral value: Double) { self = .double(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    /// An object with the members in the literal's order.
    public init(dictionaryLiteral elements: (String, JSONValue)...) { self = .object(elements.map { JSONMember($0.0, $0.1) }) }
    public init(nilLiteral: ()) { self = .null }
}
