/// One `%` directive of a format string, as `String(format:)` (Foundation's printf with `%@`)
/// reads it, or a String Catalog's own placeholders.
public struct FormatSpecifier: Hashable, Sendable, CustomStringConvertible {
    /// What a directive takes from the arguments, in the classes whose mixing goes wrong at
    /// run time: an integer read at the wrong width, a double read from an integer register,
    /// an object pointer read from anything else.
    public enum Conversion: Hashable, Sendable {
        /// `%@`: an object.
        case object
        /// `%d %i %u %o %x %X` (and `%D %U %O`); `wide` with `l`, `ll`, `q`, `j`, `z`, `t`
        /// (64 bits on Apple's 64-bit platforms) or `%D %U %O`.
        case integer(wide: Bool)
        /// `%f %F %e %E %g %G %a %A`; `long` with `L`.
        case double(long: Bool)
        /// `%s` (`wide`: `%ls`, `%S`): a C string.
        case cString(wide: Bool)
        /// `%c` (`wide`: `%lc`, `%C`).
        case character(wide: Bool)
        /// `%p`.
        case pointer
        /// `%n`.
        case count
        /// A `*` width or precision: an `int` argument.
        case starWidth
        /// `%%`: a literal percent sign, no argument.
        case percent
        /// `%#@name@`: a String Catalog (or stringsdict) substitution, whose argument its
        /// `argNum` names.
        case substitution(String)
        /// `%arg`: the argument inside a substitution's variations.
        case substitutionArgument
        /// Not a directive Foundation accepts (`%y`, a `%` at the end).
        case invalid
    }

    /// The directive as written (`%1$@`, `%.2f`, `%#@count@`).
    public var text: String
    /// The explicit argument number (`%2$@` → 2); nil when the directive takes the next one.
    public var position: Int?
    public var conversion: Conversion

    public init(text: String, position: Int?, conversion: Conversion) {
        self.text = text
        self.position = position
        self.conversion = conversion
    }

    /// Whether the directive takes an argument from the list (`%%`, substitutions, `%arg`
    /// and invalid directives do not).
    public var takesArgument: Bool {
        switch conversion {
        case .percent, .substitution, .substitutionArgument, .invalid: false
        default: true
        }
    }

    public var description: String { text }
}
