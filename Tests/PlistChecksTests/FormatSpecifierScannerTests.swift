import PlistChecks
import Testing

/// The specifier scanner against format strings whose reading printf defines.
@Suite struct FormatSpecifierScannerTests {
    typealias C = FormatSpecifier.Conversion

    static func scan(_ text: String, inSubstitution: Bool = false) -> [String] {
        FormatSpecifierScanner.scan(text, inSubstitution: inSubstitution).map { s in
            "\(s.text)|\(s.position.map(String.init) ?? "-")|\(s.conversion)"
        }
    }

    @Test(arguments: [
        ("Hello, %@!", ["%@|-|object"]),
        ("%lld items", ["%lld|-|integer(wide: true)"]),
        ("%d and %i and %u", ["%d|-|integer(wide: false)", "%i|-|integer(wide: false)", "%u|-|integer(wide: false)"]),
        ("%ld %zu %qd %hhd", ["%ld|-|integer(wide: true)", "%zu|-|integer(wide: true)", "%qd|-|integer(wide: true)", "%hhd|-|integer(wide: false)"]),
        ("%.2f km, %5.1e, %Lg", ["%.2f|-|double(long: false)", "%5.1e|-|double(long: false)", "%Lg|-|double(long: true)"]),
        ("%1$@ sent %2$@", ["%1$@|1|object", "%2$@|2|object"]),
        ("%2$lld of %1$lld", ["%2$lld|2|integer(wide: true)", "%1$lld|1|integer(wide: true)"]),
        ("100%% done", ["%%|-|percent"]),
        ("%-+#08x", ["%-+#08x|-|integer(wide: false)"]),
        ("%s %ls %S %c %C %p", ["%s|-|cString(wide: false)", "%ls|-|cString(wide: true)", "%S|-|cString(wide: true)",
                                "%c|-|character(wide: false)", "%C|-|character(wide: true)", "%p|-|pointer"]),
        ("%*d", ["*|-|starWidth", "%*d|-|integer(wide: false)"]),
        ("%.*2$f", ["*|2|starWidth", "%.*2$f|-|double(long: false)"]),
        ("Found %#@users@ in %#@places@", ["%#@users@|-|substitution(\"users\")", "%#@places@|-|substitution(\"places\")"]),
        ("%1$#@count@", ["%1$#@count@|1|substitution(\"count\")"]),
        ("50% off", []),
        ("trailing %", ["%|-|invalid"]),
        ("%y", ["%y|-|invalid"]),
        ("%#@unclosed", ["%#@|-|invalid"]),
        ("%0$@", ["%0$|-|invalid"]),
        ("no specifiers", []),
        ("%é and %😀d", ["%é|-|invalid", "%😀|-|invalid"]),
        ("émoji 🎉 %@", ["%@|-|object"]),
    ])
    func scans(_ text: String, _ expected: [String]) {
        #expect(Self.scan(text) == expected, "\(text)")
    }

    /// `%arg` is the substituted argument only inside a substitution's variations; elsewhere
    /// it is printf's `%a` (a hexadecimal double) followed by "rg".
    @Test func argInsideSubstitutionsOnly() {
        #expect(Self.scan("%arg users", inSubstitution: true) == ["%arg|-|substitutionArgument"])
        #expect(Self.scan("%arg users") == ["%a|-|double(long: false)"])
    }
}
