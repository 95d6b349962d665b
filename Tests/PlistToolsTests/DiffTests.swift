import OrderedCollections
import Testing
@testable import PlistTools
import PropertyList

/// `PlistValue.differences(to:)`: by key for dictionaries, aligned by LCS for arrays.
@Suite struct DiffTests {
    static func dict(_ pairs: KeyValuePairs<String, PlistValue>) -> PlistValue {
        .dictionary(OrderedDictionary(uniqueKeysWithValues: pairs.map { ($0.key, $0.value) }))
    }

    static func path(_ dotted: String) -> KeyPath { KeyPath.parse(dotted) }

    @Test func equalValuesHaveNoDifferences() {
        let value = Self.dict(["a": .int(1), "b": .array([.string("x"), Self.dict(["c": .bool(true)])])])
        #expect(value.differences(to: value).isEmpty)
        #expect(PlistValue.array([]).differences(to: .array([])).isEmpty)
    }

    @Test func keyOrderIsNoDifference() {
        let a = Self.dict(["a": .int(1), "b": .int(2)])
        let b = Self.dict(["b": .int(2), "a": .int(1)])
        #expect(a.differences(to: b).isEmpty)
    }

    @Test func dictionariesReportKeysInOldOrderThenNewKeys() {
        let a = Self.dict(["z": .int(1), "gone": .string("x"), "a": .int(2), "same": .bool(true)])
        let b = Self.dict(["new2": .int(9), "a": .int(3), "same": .bool(true), "z": .int(1), "new1": .int(8)])
        #expect(a.differences(to: b) == [
            .removed(path: Self.path("gone"), value: .string("x")),
            .changed(path: Self.path("a"), old: .int(2), new: .int(3)),
            .added(path: Self.path("new2"), value: .int(9)),
            .added(path: Self.path("new1"), value: .int(8)),
        ])
    }

    @Test func nestedDictionaryChangeAndEscapedKey() {
        let a = Self.dict(["com.apple.x": Self.dict(["inner": .string("1")])])
        let b = Self.dict(["com.apple.x": Self.dict(["inner": .string("2")])])
        let differences = a.differences(to: b)
        #expect(differences == [.changed(path: KeyPath(["com.apple.x", "inner"]), old: .string("1"), new: .string("2"))])
        #expect(differences.first?.description == "~ com\\.apple\\.x.inner: \"1\" → \"2\"")
    }

    @Test func typeChangeNamesBothTypes() {
        let a = Self.dict(["Count": .string("3")])
        let b = Self.dict(["Count": .int(3)])
        let differences = a.differences(to: b)
        #expect(differences == [.changed(path: Self.path("Count"), old: .string("3"), new: .int(3))])
        #expect(PlistDifference.textReport(differences) == "~ Count: \"3\" (string) → 3 (integer)\n")
        // A container replaced by another kind of container is one change, not a walk inside.
        let c = Self.dict(["x": .array([.int(1)])])
        let d = Self.dict(["x": Self.dict(["0": .int(1)])])
        #expect(c.differences(to: d) == [.changed(path: Self.path("x"), old: .array([.int(1)]), new: Self.dict(["0": .int(1)]))])
    }

    @Test func differentRootsAreReportedAtTheRoot() {
        let differences = PlistValue.string("a").differences(to: .int(1))
        #expect(differences == [.changed(path: KeyPath([]), old: .string("a"), new: .int(1))])
        #expect(differences.first?.description == "~ :: \"a\" (string) → 1 (integer)")
    }

    @Test func oneInsertionInTheMiddleIsOneAddition() {
        let old = (0..<10).map { PlistValue.string("item\($0)") }
        var new = old
        new.insert(.string("inserted"), at: 5)
        let differences = PlistValue.array(old).differences(to: .array(new))
        #expect(differences == [.added(path: Self.path("5"), value: .string("inserted"))])
    }

    @Test func oneRemovalInTheMiddleIsOneRemoval() {
        let old = (0..<10).map { PlistValue.int(Int64($0)) }
        var new = old
        new.remove(at: 3)
        #expect(PlistValue.array(old).differences(to: .array(new)) == [.removed(path: Self.path("3"), value: .int(3))])
    }

    @Test func replacedScalarsAreRemovedAndAdded() {
        let a = PlistValue.array([.string("a"), .string("b"), .string("c")])
        let b = PlistValue.array([.string("a"), .string("X"), .string("c"), .string("d")])
        #expect(a.differences(to: b) == [
            .removed(path: Self.path("1"), value: .string("b")),
            .added(path: Self.path("1"), value: .string("X")),
            .added(path: Self.path("3"), value: .string("d")),
        ])
    }

    @Test func changeInsideAnArrayElementIsReportedInside() {
        func element(_ n: Int, _ key: String = "v") -> PlistValue { Self.dict(["name": .string("e\(n)"), "key": .string(key)]) }
        let old = PlistValue.dictionary(["list": .array((0..<6).map { element($0) })])
        var items = (0..<6).map { element($0) }
        items[3] = element(3, "changed")
        let new = PlistValue.dictionary(["list": .array(items)])
        #expect(old.differences(to: new) == [.changed(path: Self.path("list.3.key"), old: .string("v"), new: .string("changed"))])
    }

    @Test func pairedContainersUseTheNewIndex() {
        // A removal before a changed dictionary: the dictionary is at 2 in the old array and
        // at 1 in the new one; a removal counts in the old array, a change in the new.
        let old = PlistValue.array([.string("p"), .string("a"), Self.dict(["k": .int(1)]), .string("z")])
        let new = PlistValue.array([.string("a"), Self.dict(["k": .int(2)]), .string("z")])
        #expect(old.differences(to: new) == [
            .removed(path: Self.path("0"), value: .string("p")),
            .changed(path: Self.path("1.k"), old: .int(1), new: .int(2)),
        ])
        // Only containers of the same type pair up; a dictionary against a string at the
        // same position is a removal and an addition.
        let before = PlistValue.array([.string("a"), Self.dict(["k": .int(1)]), .string("z")])
        let shifted = PlistValue.array([.string("a"), .string("new"), Self.dict(["k": .int(2)]), .string("z")])
        #expect(before.differences(to: shifted) == [
            .removed(path: Self.path("1"), value: Self.dict(["k": .int(1)])),
            .added(path: Self.path("1"), value: .string("new")),
            .added(path: Self.path("2"), value: Self.dict(["k": .int(2)])),
        ])
    }

    @Test func nestedArraysRecurse() {
        let old = PlistValue.array([.array([.int(1), .int(2), .int(3)]), .string("tail")])
        let new = PlistValue.array([.array([.int(1), .int(5), .int(2), .int(3)]), .string("tail")])
        #expect(old.differences(to: new) == [.added(path: Self.path("0.1"), value: .int(5))])
    }

    @Test func pastTheAlignmentCapElementsAreComparedByIndex() {
        let old = (0..<20).map { PlistValue.int(Int64($0)) }
        var new = old
        new.insert(.int(-1), at: 0)
        new.append(.int(-2))  // no common prefix or suffix left to trim
        var engine = DiffEngine(maxAlignmentCells: 10)
        var path: [String] = []
        engine.compare(.array(old), .array(new), path: &path)
        // Index by index: every element differs, then the extra one is added.
        #expect(engine.differences.count == 22)
        #expect(engine.differences.first == .changed(path: Self.path("0"), old: .int(0), new: .int(-1)))
        #expect(engine.differences.last == .added(path: Self.path("21"), value: .int(-2)))
        // With the default cap the same arrays align.
        #expect(PlistValue.array(old).differences(to: .array(new)) == [
            .added(path: Self.path("0"), value: .int(-1)),
            .added(path: Self.path("21"), value: .int(-2)),
        ])
    }

    @Test func totalAlignmentWorkIsCapped() {
        // Two sibling arrays of 10 × 10 unmatched elements: the first fits a 150-cell budget,
        // the second does not and is compared index by index.
        let old = (0..<10).map { PlistValue.int(Int64($0)) }
        let new = (0..<10).map { PlistValue.int(Int64($0 + 100)) }
        var engine = DiffEngine(maxAlignmentCells: 100, maxTotalAlignmentCells: 150)
        var path: [String] = []
        engine.compare(.array([.array(old), .array(old)]), .array([.array(new), .array(new)]), path: &path)
        let first = engine.differences.filter { $0.path.components.first == "0" }
        let second = engine.differences.filter { $0.path.components.first == "1" }
        #expect(first.count == 20 && first.allSatisfy { if case .changed = $0 { false } else { true } })
        #expect(second.count == 10 && second.allSatisfy { if case .changed = $0 { true } else { false } })
    }

    @Test func largeArraysStayFast() {
        // 100 000 elements with one change in the middle: prefix and suffix trimming leaves
        // a tiny middle; completely different halves fall back to index by index.
        let old = (0..<100_000).map { PlistValue.int(Int64($0)) }
        var new = old
        new[50_000] = .int(-1)
        #expect(PlistValue.array(old).differences(to: .array(new)).count == 2)
        let reversed = PlistValue.array(old.reversed())
        #expect(PlistValue.array(old).differences(to: reversed).count == 100_000)
    }

    @Test func crossFormatEqualityHasNoDifferences() throws {
        let value = Self.dict([
            "name": .string("Demo"), "count": .int(3), "ratio": .double(0.5), "on": .bool(true),
            "when": .date(PlistDate(secondsSinceReferenceDate: 86_400)), "blob": .data([0, 1, 2, 255]),
            "list": .array([.string("a"), Self.dict(["k": .int(-7)])]),
        ])
        let xml = try PropertyListCoding.read(try PropertyListCoding.write(value, as: .xml)).value
        let binary = try PropertyListCoding.read(try PropertyListCoding.write(value, as: .binary)).value
        #expect(xml.differences(to: binary).isEmpty)
        #expect(binary.differences(to: xml).isEmpty)
    }

    @Test func jsonReportRendersJSONValues() {
        let differences: [PlistDifference] = [
            .added(path: Self.path("a.0"), value: Self.dict(["k": .array([.int(1), .bool(false)])])),
            .removed(path: Self.path("quote\"d"), value: .string("line\nbreak")),
            .changed(path: KeyPath([]), old: .data([1, 2, 3]), new: .double(.nan)),
        ]
        #expect(PlistDifference.jsonReport(differences) == """
            [
              {"change": "added", "path": "a.0", "new": {"k": [1, false]}, "newType": "dict"},
              {"change": "removed", "path": "quote\\"d", "old": "line\\nbreak", "oldType": "string"},
              {"change": "changed", "path": ":", "old": "AQID", "oldType": "data", "new": "nan", "newType": "real"}
            ]

            """)
        #expect(PlistDifference.jsonReport([]) == "[]\n")
    }

    /// In colour each line takes its kind's colour, as git diff's; removing the codes gives the
    /// plain report, and a key holding ESC cannot add codes of its own.
    @Test func colouredReportOnlyAddsCodes() {
        let differences: [PlistDifference] = [
            .added(path: Self.path("a"), value: .int(1)),
            .removed(path: Self.path("b"), value: .string("x")),
            .changed(path: Self.path("c"), old: .int(1), new: .int(2)),
            .added(path: Self.path("evil\u{1B}[2J"), value: .bool(true)),
        ]
        let coloured = PlistDifference.textReport(differences, colored: true)
        let lines = coloured.split(separator: "\n").map(String.init)
        #expect(lines[0].hasPrefix("\u{1B}[32m+ a") && lines[0].hasSuffix("\u{1B}[0m"))
        #expect(lines[1].hasPrefix("\u{1B}[31m- b"))
        #expect(lines[2].hasPrefix("\u{1B}[33m~ c"))
        #expect(lines[3] == "\u{1B}[32m+ evil\\x1B[2J = true\u{1B}[0m")
        let stripped = ["\u{1B}[32m", "\u{1B}[31m", "\u{1B}[33m", "\u{1B}[0m"].reduce(coloured) { $0.replacing($1, with: "") }
        #expect(stripped == PlistDifference.textReport(Array(differences.prefix(3))) + "+ evil\\x1B[2J = true\n")
    }
}
