import ArgumentParser

/// A command line read without ArgumentParser's reflection, for `DirectlyParsed` commands:
/// long options (`--name value`, `--name=value`), single short options (`-o value`), flags,
/// positionals (`-` among them) and `--`, after which everything is positional. Every other
/// shape — combined short options, `-o=value`, `--help` and `-h`, a value that looks like an
/// option — is not read here, and a reader gives up on any option it does not know: then
/// ArgumentParser reads the whole line, with its own messages.
struct DirectArguments {
    private var remaining: ArraySlice<String>
    /// The `value` of `--name=value`, until the option's reader takes it.
    private var attachedValue: String?
    private var optionsEnded = false
    /// The positionals met so far, in order.
    private(set) var positionals: [String] = []
    /// How many positionals came before `--`, once it is met.
    private(set) var positionalsBeforeEnd: Int?

    init(_ arguments: ArraySlice<String>) {
        remaining = arguments
    }

    /// The next option's name (`--raw`), collecting the positionals before it; nil at the
    /// end, or at an argument no reader here accepts (then `isUnreadable` is true).
    mutating func nextOption() -> String? {
        guard attachedValue == nil else {
            isUnreadable = true  // the previous option left its `=value` unread
            return nil
        }
        while let argument = remaining.popFirst() {
            if optionsEnded || argument == "-" || !argument.hasPrefix("-") {
                positionals.append(argument)
            } else if argument == "--" {
                optionsEnded = true
                positionalsBeforeEnd = positionals.count
            } else if argument.hasPrefix("--"), argument != "--help" {
                guard let equals = argument.firstIndex(of: "=") else { return argument }
                attachedValue = String(argument[argument.index(after: equals)...])
                return String(argument[..<equals])
            } else if argument.utf8.count == 2, argument != "-h" {
                return argument
            } else {
                isUnreadable = true
                return nil
            }
        }
        return nil
    }

    /// Set when the line holds something only ArgumentParser reads.
    private(set) var isUnreadable = false

    /// The value of the option just read: its `=value`, or the next argument unless that
    /// looks like an option.
    mutating func value() -> String? {
        if let attached = attachedValue {
            attachedValue = nil
            return attached
        }
        guard let next = remaining.first, next == "-" || !next.hasPrefix("-") else { return nil }
        return remaining.popFirst()
    }

    /// The value of the option just read, converted as ArgumentParser converts it.
    mutating func value<Value: ExpressibleByArgument>(_: Value.Type) -> Value? {
        value().flatMap(Value.init(argument:))
    }

    /// Reads the option's value into `target`; false when it is missing or does not convert.
    mutating func read<Value: ExpressibleByArgument>(into target: inout Value) -> Bool {
        guard let value = value(Value.self) else { return false }
        target = value
        return true
    }

    mutating func read<Value: ExpressibleByArgument>(into target: inout Value?) -> Bool {
        guard let value = value(Value.self) else { return false }
        target = value
        return true
    }

    /// Appends the value of a repeatable option to `target`.
    mutating func append<Value: ExpressibleByArgument>(to target: inout [Value]) -> Bool {
        guard let value = value(Value.self) else { return false }
        target.append(value)
        return true
    }

    /// Sets a flag: false when it was given a value (`--flag=value`).
    func set(_ flag: inout Bool) -> Bool {
        guard isFlag() else { return false }
        flag = true
        return true
    }

    /// Whether the flag just read stands alone (a flag given `=value` is not read here).
    func isFlag() -> Bool {
        attachedValue == nil
    }
}

extension DirectArguments {
    /// Reads a line whose only options are an in-place edit's `--backup` and `--force`
    /// (`plist delete`, `plist rename`); nil at any other option.
    mutating func writeFlags() -> (backup: Bool, force: Bool)? {
        var backup = false
        var force = false
        while let option = nextOption() {
            let read = switch option {
            case "--backup": set(&backup)
            case "--force": set(&force)
            default: false
            }
            guard read else { return nil }
        }
        return (backup, force)
    }
}
