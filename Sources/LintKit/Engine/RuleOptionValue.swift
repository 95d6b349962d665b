/// A value given to a rule option in the config file.
public enum RuleOptionValue: Hashable, Sendable, CustomStringConvertible {
    case integer(Int)
    case string(String)
    case bool(Bool)
    case list([String])

    public var description: String {
        switch self {
        case .integer(let i): "\(i)"
        case .string(let s): s
        case .bool(let b): b ? "true" : "false"
        case .list(let l): "[" + l.joined(separator: ", ") + "]"
        }
    }
}
