import Symbolication
import Testing

@Suite struct DemanglerTests {
    let demangler = Demangler()

    @Test(arguments: [
        ("_ZN3geo3dotIiEET_RKNS_3VecIS1_EES5_", "int geo::dot<int>(geo::Vec<int> const&, geo::Vec<int> const&)"),
        ("_ZNSt6vectorIiSaIiEE9push_backEOi", "std::vector<int, std::allocator<int> >::push_back(int&&)"),
        ("$s4main3fooyyF", "main.foo() -> ()"),
        ("$sSa6appendyyxnF", "Swift.Array.append(__owned A) -> ()"),
        ("$sSD17dictionaryLiteralSDyxq_Gx_q_td_tcfCSS_SdTt0g5Tf4g_n",
         "function signature specialization <Arg[0] = Owned To Guaranteed> of generic specialization <Swift.String, Swift.Double> of Swift.Dictionary.init(dictionaryLiteral: (A, B)...) -> [A : B]"),
        ("compute", "compute"),
        ("_Znot a name", "_Znot a name"),
    ])
    func demangles(_ mangled: String, _ expected: String) {
        #expect(demangler.canDemangleSwift)
        #expect(demangler.canDemangleCPlusPlus)
        #expect(demangler.demangle(mangled) == expected)
    }

    /// Xcode's short form, as `swift-demangle --simplified` prints it.
    @Test(arguments: [
        ("$s4main3fooyyF", "foo()"),
        ("$sSa6appendyyxnF", "Array.append(_:)"),
        ("$sSD17dictionaryLiteralSDyxq_Gx_q_td_tcfCSS_SdTt0g5Tf4g_n", "specialized Dictionary.init(dictionaryLiteral:)"),
        ("_ZN3geo3dotIiEET_RKNS_3VecIS1_EES5_", "int geo::dot<int>(geo::Vec<int> const&, geo::Vec<int> const&)"),
    ])
    func demanglesShortNames(_ mangled: String, _ expected: String) {
        #expect(Demangler(names: .short).demangle(mangled) == expected)
    }
}
