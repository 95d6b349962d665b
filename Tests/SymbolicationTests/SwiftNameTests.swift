import DevKitTestSupport
import Foundation
import Symbolication
import Testing

/// devkit's Swift names against the toolchain's `swift-demangle` on every Swift symbol (`nm`)
/// of the Swift test programs, built here as their tests build them: short names must equal
/// `swift-demangle --simplified`, full names `swift-demangle`, byte for byte.
@Suite struct SwiftNameTests {
    /// The Swift programs the test targets build (`grep -r swiftc Tests`): this target's
    /// generics.swift (OracleTests) and HeapRecorderTests' RetainCycle.swift.
    static let programs: [(source: String, flags: [String])] = [
        (Toolchain.fixtures.appendingPathComponent("generics.swift").path, ["-g", "-O", "-module-name", "generics"]),
        (Toolchain.fixtures.deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("HeapRecorderTests/Programs/RetainCycle.swift").path, ["-g", "-Onone"]),
    ]

    @Test(arguments: 0..<2, NameForm.allCases)
    func namesEqualSwiftDemangle(_ program: Int, _ form: NameForm) throws {
        guard let swiftc = Toolchain.find("swiftc"), SwiftDemangleOracle.tool != nil else {
            print("skipped: swiftc or swift-demangle not installed"); return
        }
        let directory = try Toolchain.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (source, flags) = Self.programs[program]
        let binary = directory.appendingPathComponent("program").path
        let build = try Toolchain.run(swiftc, flags + [source, "-o", binary])
        try #require(build.status == 0, "swiftc failed: \(build.stderr)")
        let names = try SwiftDemangleOracle.swiftSymbols(of: binary)
        #expect(names.count > 20, "too few Swift symbols in \(source)")
        let expected = try SwiftDemangleOracle.demangle(names, simplified: form == .short)
        let demangler = Demangler(names: form)
        var mismatches: [String] = []
        for (name, want) in zip(names, expected) {
            let got = demangler.demangle(name)
            if got != want { mismatches.append("\(name)\n  devkit:         \(got)\n  swift-demangle: \(want)") }
        }
        #expect(mismatches.isEmpty, "\(mismatches.count) of \(names.count) \(form) names differ:\n\(mismatches.prefix(10).joined(separator: "\n"))")
    }

    /// Full names come with sugar in every build devkit is tested and shipped in: the runtime's
    /// C++ entry point in a release build (static runtime), the toolchain's libswiftDemangle in a
    /// debug one. `.unsugared` here means the runtime's options layout or the toolchain changed.
    @Test func fullNamesHaveSugar() {
        #expect(Demangler.fullNameSource != .unsugared)
        #expect(Demangler(names: .full).demangle("$s6shapes9totalArea_5scaleSdSayAA5ShapeVG_SDySSSdGtF")
            == "shapes.totalArea(_: [shapes.Shape], scale: [Swift.String : Swift.Double]) -> Swift.Double")
        #expect(Demangler(names: .short).demangle("$s6shapes9totalArea_5scaleSdSayAA5ShapeVG_SDySSSdGtF") == "totalArea(_:scale:)")
    }

    /// C++ names are the same in both forms.
    @Test func cPlusPlusNamesIgnoreTheForm() {
        let name = "_ZNSt6vectorIiSaIiEE9push_backEOi"
        #expect(Demangler(names: .short).demangle(name) == Demangler(names: .full).demangle(name))
    }
}
