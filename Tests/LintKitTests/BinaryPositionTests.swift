import LintKit
import PlistChecks
import PlistTools
import PropertyList
import Testing

/// Findings in binary plists point at the byte offset of the value's object.
@Suite struct BinaryPositionTests {
    @Test func findingPointsAtTheObject() throws {
        let value: PlistValue = .dictionary([
            "CFBundleShortVersionString": .string("1.0 beta"),
            "UIRequiredDeviceCapabilities": .array([.string("arm64"), .string("metall")]),
        ])
        let bytes = try PropertyListCoding.write(value, as: .binary)
        let engine = try LintEngine(registry: PlistRules.registry, options: PlistLintOptions(isBuiltProduct: true))
        let findings = engine.lint(path: "Info.plist", bytes: bytes).filter { $0.ruleID != "infoplist.required-keys" }
        #expect(findings.map(\.ruleID) == ["infoplist.short-version-format", "infoplist.device-capabilities"])
        let strings: [String] = try findings.map { finding in
            guard case .byteOffset(let offset)? = finding.location else { throw Failure("no offset: \(finding)") }
            // An ASCII string object: marker 0x5N (N = length), then the bytes.
            #expect(bytes[offset] >> 4 == 0x5)
            let length = Int(bytes[offset] & 0x0F)
            return String(decoding: bytes[(offset + 1)...(offset + length)], as: UTF8.self)
        }
        #expect(strings == ["1.0 beta", "metall"])
        #expect(TextReporter().render([findings[0]]).hasPrefix("Info.plist: offset 0x"))
    }

    @Test func sharedObjectsGetEachPath() throws {
        // Apple's writer stores equal strings once; both paths must still resolve.
        let value: PlistValue = .dictionary(["a": .array([.string("x"), .string("x")]), "b": .array([.string("x")])])
        let map = try PlistSourceMap(binary: PropertyListCoding.write(value, as: .binary))
        #expect(map.value == value)
        let offsets = [["a", "0"], ["a", "1"], ["b", "0"]].compactMap { map.node(at: $0)?.element.lowerBound }
        #expect(offsets.count == 3 && Set(offsets).count == 1)
        #expect(map.node(at: ["a"]) != nil && map.node(at: ["b"]) != map.node(at: ["a"]))
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
        init(_ d: String) { description = d }
    }
}
