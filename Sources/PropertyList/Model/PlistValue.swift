import OrderedCollections

/// One property-list value: the model every reader produces and every writer consumes.
///
/// Dictionaries keep their keys in the order they were read (`OrderedDictionary`), so a
/// converted or printed file lists keys as its author wrote them.
public enum PlistValue: Hashable, Sendable {
    case string(String)
    case integer(PlistInteger)
    case real(PlistReal)
    case bool(Bool)
    case date(PlistDate)
    case data([UInt8])
    case array([PlistValue])
    case dictionary(OrderedDictionary<String, PlistValue>)
    /// A keyed-archiver object reference (`CF$UID`); binary plists only.
    case uid(UInt64)

    /// The type's name as the XML tag spells it (`dict`, `integer`, …); `uid` for UIDs.
    public var typeName: String {
        switch self {
        case .string: "string"
        case .integer: "integer"
        case .real: "real"
        case .bool: "bool"
        case .date: "date"
        case .data: "data"
        case .array: "array"
        case .dictionary: "dict"
        case .uid: "uid"
        }
    }

    /// Convenience constructors for tests and callers.
    public static func int(_ value: Int64) -> PlistValue { .integer(PlistInteger(value)) }
    public static func double(_ value: Double) -> PlistValue { .real(PlistReal(value)) }
}
