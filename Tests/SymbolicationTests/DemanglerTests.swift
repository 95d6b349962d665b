import Symbolication
import Testing

@Suite struct DemanglerTests {
    let demangler = Demangler()

    @Test(arguments: [
        ("_ZN3geo3dotIiEET_RKNS_3VecIS1_EES5_", "int geo::dot<int>(geo::Vec<int> const&, geo::Vec<int> const&)"),
        ("_ZNSt6vectorIiSaIiEE9push_backEOi", "std::vector<int, std::allocator<int> >::push_back(int&&)"),
        ("$s4main3fooyyF", "main.foo() -> ()"),
        ("$sSa6appendyyxnF", "Swift.Array.append(__owned A) -> ()"),
        ("compute", "compute"),
        ("_Znot a name", "_Znot a name"),
    ])
    func demangles(_ mangled: String, _ expected: String) {
        #expect(demangler.canDemangleSwift)
        #expect(demangler.canDemangleCPlusPlus)
        #expect(demangler.demangle(mangled) == expected)
    }
}
