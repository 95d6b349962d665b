import ArgumentParser
import PlistTools

extension PlistEditType: ExpressibleByArgument {}

/// The value `plist set` and `plist insert` write: its text and its type.
struct NewValueOptions: ParsableArguments {
    @Argument(help: "The new value, as text.")
    var value: String

    @Option(name: .long, help: "The value's type (string|integer|real|bool|date|data|json|xml).")
    var type: PlistEditType?
}
