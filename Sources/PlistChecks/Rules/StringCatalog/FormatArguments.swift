/// What a format string reads, slot by slot, as `String(format:)` assigns arguments:
/// numbered directives (`%2$@`) their number, the others the next number in turn (a `*`
/// width takes one too). Substitutions (`%#@name@`) and `%arg` are slots of their own, by
/// name, since their argument is the substitution's `argNum`.
struct FormatArguments {
    /// A slot: an argument number, a substitution's name, or `%arg`.
    enum Slot: Hashable, Comparable, CustomStringConvertible {
        case argument(Int)
        case substitution(String)
        case substitutionArgument

        var description: String {
            switch self {
            case .argument(let n): "argument \(n)"
            case .substitution(let name): "substitution %#@\(name)@"
            case .substitutionArgument: "%arg"
            }
        }
    }

    /// The first directive reading each slot.
    private(set) var slots: [Slot: FormatSpecifier] = [:]
    /// Whether both numbered and unnumbered directives take arguments (undefined in printf).
    private(set) var mixesNumbering = false
    /// A slot read twice with different conversions (`%1$@ … %1$d`).
    private(set) var conflicts: [(Slot, FormatSpecifier, FormatSpecifier)] = []

    init(_ specifiers: [FormatSpecifier]) {
        var next = 1
        var numbered = false, unnumbered = false
        for specifier in specifiers {
            let slot: Slot
            switch specifier.conversion {
            case .percent, .invalid: continue
            case .substitution(let name): slot = .substitution(name)
            case .substitutionArgument: slot = .substitutionArgument
            default:
                if let position = specifier.position {
                    numbered = true
                    slot = .argument(position)
                } else {
                    unnumbered = true
                    slot = .argument(next)
                    next += 1
                }
            }
            if let earlier = slots[slot] {
                if earlier.conversion != specifier.conversion { conflicts.append((slot, earlier, specifier)) }
            } else {
                slots[slot] = specifier
            }
        }
        mixesNumbering = numbered && unnumbered
    }

    init(_ text: String, inSubstitution: Bool = false) {
        self.init(FormatSpecifierScanner.scan(text, inSubstitution: inSubstitution))
    }

    /// How `translation` reads its arguments differently from `source`, one phrase per slot
    /// in slot order; empty when they agree. `mayOmit`: slots the source has may be left out.
    static func differences(source: FormatArguments, translation: FormatArguments, mayOmit: Bool) -> [String] {
        var out: [String] = []
        for slot in Set(source.slots.keys).union(translation.slots.keys).sorted() {
            switch (source.slots[slot], translation.slots[slot]) {
            case (let s?, let t?) where s.conversion != t.conversion:
                out.append("\(t.text) for \(slot) where the source has \(s.text)")
            case (let s?, nil) where !mayOmit:
                out.append("no \(s.text) (\(slot))")
            case (nil, let t?):
                out.append("\(t.text) (\(slot)) is not in the source")
            default: break
            }
        }
        return out
    }
}
