@testable import Symbolication
import Testing

/// `Demangler.looksLikeSwift` decides which names go to the Swift demangler; issue 18 moved it
/// from `String.hasPrefix` to byte comparisons, which must accept and refuse the same names:
/// Swift 4+ manglings (`$s`, `$S`, `$e`, with or without one leading underscore) and Swift 3's
/// `_T0`, nothing else.
@Suite struct SwiftManglingPrefixTests {
    @Test(arguments: [
        ("$s4main3fooyyF", true), ("_$s4main3fooyyF", true), ("$S4main3fooyyF", true), ("_$S4main", true),
        ("$e4main3fooyyF", true), ("_$e4main", true), ("_T04main3fooyyF", true), ("$s", true),
        ("_Z3foov", false), ("main", false), ("$x1", false), ("$", false), ("_$", false), ("_", false),
        ("", false), ("__T0", false), ("__$s4main", false), ("_T", false), ("é$s", false),
    ])
    func prefixes(_ name: String, _ isSwift: Bool) {
        #expect(Demangler.looksLikeSwift(name) == isSwift)
        // A name built piece by piece (not a literal) takes the same path.
        let built = String(name.reversed().reversed())
        #expect(Demangler.looksLikeSwift(built) == isSwift)
    }
}
