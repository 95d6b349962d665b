/// How Swift names are printed (`--names short|full`). C++ names are the same in both.
public enum NameForm: String, Sendable, CaseIterable {
    /// Xcode's simplified form, exactly what `swift-demangle --simplified` prints: no modules,
    /// no argument or result types, `specialized`, `closure #1 in totalArea(_:)`.
    case short
    /// `swift-demangle`'s default form: modules, argument and result types, generic
    /// specializations, with sugar (`[A]`, `[K : V]`, `A?`), as llvm-symbolizer shows names.
    case full
}
