import PropertyList

/// What a rule's `check` reports through: its options, and the findings it collects.
public struct RuleContext: Sendable {
    /// A finding before its position is known: the key path it is about.
    struct Pending: Sendable {
        var path: KeyPath
        var message: String
        var fix: PlistFix?
    }

    public let ruleID: String
    /// Option values from the config, over the rule's defaults.
    public let ruleOptions: [String: RuleOptionValue]
    var pending: [Pending] = []

    public init(ruleID: String, ruleOptions: [String: RuleOptionValue]) {
        self.ruleID = ruleID
        self.ruleOptions = ruleOptions
    }

    /// Reports a finding about the value at `path` (the root when empty): it points at the
    /// entry's `<key>` when it has one, else at the value's element.
    public mutating func report(_ message: String, at path: KeyPath = KeyPath([]), fix: PlistFix? = nil) {
        pending.append(Pending(path: path, message: message, fix: fix))
    }

    /// Reports a finding about the root dictionary's `key`.
    public mutating func report(_ message: String, key: String, fix: PlistFix? = nil) {
        report(message, at: KeyPath([key]), fix: fix)
    }

    public func integerOption(_ name: String, default value: Int) -> Int {
        if case .integer(let i)? = ruleOptions[name] { return i }
        return value
    }

    public func listOption(_ name: String, default value: [String]) -> [String] {
        switch ruleOptions[name] {
        case .list(let l)?: l
        case .string(let s)?: [s]
        default: value
        }
    }

    public func boolOption(_ name: String, default value: Bool) -> Bool {
        if case .bool(let b)? = ruleOptions[name] { return b }
        return value
    }
}
