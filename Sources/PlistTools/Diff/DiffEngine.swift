import Diagnostics
import JSONWriter
import OrderedCollections
import PropertyList

/// The comparison behind `PlistValue.differences(to:)`.
struct DiffEngine {
    /// See `PlistDifference.maxAlignmentCells`; lower in tests of the fallback.
    let maxAlignmentCells: Int
    /// LCS cells left for this comparison (`PlistDifference.maxTotalAlignmentCells` at first).
    var remainingAlignmentCells: Int
    var differences: [PlistDifference] = []

    init(maxAlignmentCells: Int = PlistDifference.maxAlignmentCells,
         maxTotalAlignmentCells: Int = PlistDifference.maxTotalAlignmentCells) {
        // The alignment stores lengths in UInt16 cells: min(n, m)² ≤ cells must stay below 65536².
        self.maxAlignmentCells = min(maxAlignmentCells, PlistDifference.maxAlignmentCells)
        remainingAlignmentCells = maxTotalAlignmentCells
    }

    mutating func compare(_ old: PlistValue, _ new: PlistValue, path: inout [String]) {
        guard old != new else { return }
        switch (old, new) {
        case (.dictionary(let a), .dictionary(let b)):
            compareDictionaries(a, b, path: &path)
        case (.array(let a), .array(let b)):
            compareArrays(a, b, path: &path)
        default:
            differences.append(.changed(path: KeyPath(path), old: old, new: new))
        }
    }

    private mutating func compareDictionaries(
        _ a: OrderedDictionary<String, PlistValue>, _ b: OrderedDictionary<String, PlistValue>, path: inout [String]
    ) {
        for (key, oldValue) in a {
            path.append(key)
            if let newValue = b[key] {
                compare(oldValue, newValue, path: &path)
            } else {
                differences.append(.removed(path: KeyPath(path), value: oldValue))
            }
            path.removeLast()
        }
        for (key, newValue) in b where a[key] == nil {
            path.append(key)
            differences.append(.added(path: KeyPath(path), value: newValue))
            path.removeLast()
        }
    }

    private mutating func compareArrays(_ a: [PlistValue], _ b: [PlistValue], path: inout [String]) {
        // Equal elements at either end need no alignment.
        var prefix = 0
        while prefix < a.count, prefix < b.count, a[prefix] == b[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < a.count - prefix, suffix < b.count - prefix,
              a[a.count - 1 - suffix] == b[b.count - 1 - suffix] { suffix += 1 }
        let oldMiddle = prefix..<(a.count - suffix)
        let newMiddle = prefix..<(b.count - suffix)

        let (cells, overflow) = oldMiddle.count.multipliedReportingOverflow(by: newMiddle.count)
        guard !overflow, cells <= maxAlignmentCells, cells <= remainingAlignmentCells else {
            compareByIndex(a, b, oldMiddle, newMiddle, path: &path)
            return
        }
        remainingAlignmentCells -= cells
        let matches = Self.alignment(a[oldMiddle], b[newMiddle])
        // Between consecutive matches lie runs of removed and added elements.
        var i = oldMiddle.lowerBound, j = newMiddle.lowerBound
        for (matchI, matchJ) in matches + [(oldMiddle.upperBound, newMiddle.upperBound)] {
            compareUnmatched(a, b, removed: i..<matchI, added: j..<matchJ, path: &path)
            i = matchI + 1
            j = matchJ + 1
        }
    }

    /// Walks a run of unmatched elements position by position: a dictionary replaced by a
    /// dictionary (or an array by an array) is compared inside; anything else is a removal
    /// and an addition.
    private mutating func compareUnmatched(
        _ a: [PlistValue], _ b: [PlistValue], removed: Range<Int>, added: Range<Int>, path: inout [String]
    ) {
        for k in 0..<max(removed.count, added.count) {
            let i = removed.lowerBound + k, j = added.lowerBound + k
            if k < removed.count, k < added.count, Self.areSameContainerType(a[i], b[j]) {
                path.append(String(j))
                compare(a[i], b[j], path: &path)
                path.removeLast()
                continue
            }
            if k < removed.count {
                path.append(String(i))
                differences.append(.removed(path: KeyPath(path), value: a[i]))
                path.removeLast()
            }
            if k < added.count {
                path.append(String(j))
                differences.append(.added(path: KeyPath(path), value: b[j]))
                path.removeLast()
            }
        }
    }

    /// The fallback past the alignment cap: element k against element k, then the longer
    /// array's extra elements as removed or added.
    private mutating func compareByIndex(
        _ a: [PlistValue], _ b: [PlistValue], _ oldRange: Range<Int>, _ newRange: Range<Int>, path: inout [String]
    ) {
        let common = min(oldRange.count, newRange.count)
        for k in 0..<common {
            path.append(String(oldRange.lowerBound + k))
            compare(a[oldRange.lowerBound + k], b[newRange.lowerBound + k], path: &path)
            path.removeLast()
        }
        for i in (oldRange.lowerBound + common)..<oldRange.upperBound {
            path.append(String(i))
            differences.append(.removed(path: KeyPath(path), value: a[i]))
            path.removeLast()
        }
        for j in (newRange.lowerBound + common)..<newRange.upperBound {
            path.append(String(j))
            differences.append(.added(path: KeyPath(path), value: b[j]))
            path.removeLast()
        }
    }

    private static func areSameContainerType(_ x: PlistValue, _ y: PlistValue) -> Bool {
        switch (x, y) {
        case (.dictionary, .dictionary), (.array, .array): true
        default: false
        }
    }

    /// Index pairs (into the slices' own indices) of a longest common subsequence of equal
    /// elements, in increasing order. The caller keeps `a.count × b.count` within
    /// `maxAlignmentCells`, so the smaller count is at most 2000 and fits a `UInt16` cell.
    static func alignment(_ a: ArraySlice<PlistValue>, _ b: ArraySlice<PlistValue>) -> [(Int, Int)] {
        let n = a.count, m = b.count
        guard n > 0, m > 0 else { return [] }
        // Each distinct element gets a small integer once, so the table compares integers
        // rather than whole values.
        var ids: [PlistValue: Int] = [:]
        func id(_ v: PlistValue) -> Int {
            if let known = ids[v] { return known }
            ids[v] = ids.count
            return ids.count - 1
        }
        let x = a.map(id), y = b.map(id)
        // lengths[i * (m + 1) + j]: LCS length of x[i...] and y[j...].
        let width = m + 1
        var lengths = [UInt16](repeating: 0, count: (n + 1) * width)
        for i in stride(from: n - 1, through: 0, by: -1) {
            for j in stride(from: m - 1, through: 0, by: -1) {
                lengths[i * width + j] = x[i] == y[j]
                    ? lengths[(i + 1) * width + j + 1] + 1
                    : max(lengths[(i + 1) * width + j], lengths[i * width + j + 1])
            }
        }
        var pairs: [(Int, Int)] = []
        var i = 0, j = 0
        while i < n, j < m {
            if x[i] == y[j] {
                pairs.append((a.startIndex + i, b.startIndex + j))
                i += 1
                j += 1
            } else if lengths[(i + 1) * width + j] >= lengths[i * width + j + 1] {
                i += 1
            } else {
                j += 1
            }
        }
        return pairs
    }
}

// MARK: - Rendering

extension PlistDifference: CustomStringConvertible {
    /// The path in dotted form (`CFBundleURLTypes.0.CFBundleURLName`); `:` for the root.
    public var pathDescription: String {
        path.components.isEmpty ? ":" : path.description
    }

    /// One line: `+ path = value`, `- path = value`, `~ path: old → new`; a change of type
    /// names both types (`~ Count: "3" (string) → 3 (integer)`). Values as
    /// `PlistPrinter.scalar` writes them; containers as their size (`{…2 keys}`).
    public var description: String {
        switch self {
        case .added(_, let value):
            return "+ \(pathDescription) = \(PlistPrinter.scalar(value))"
        case .removed(_, let value):
            return "- \(pathDescription) = \(PlistPrinter.scalar(value))"
        case .changed(_, let old, let new):
            if old.typeName == new.typeName {
                return "~ \(pathDescription): \(PlistPrinter.scalar(old)) → \(PlistPrinter.scalar(new))"
            }
            return "~ \(pathDescription): \(PlistPrinter.scalar(old)) (\(old.typeName)) → \(PlistPrinter.scalar(new)) (\(new.typeName))"
        }
    }

    /// The differences one per line, as `description` spells them; empty for none. With
    /// `colored`, each line in the colour `git diff` gives its kind (added green, removed red,
    /// changed yellow) with its text escaped by `TerminalText`, so only the codes are added
    /// and no key or value can add codes of its own.
    public static func textReport(_ differences: [PlistDifference], colored: Bool = false) -> String {
        guard colored else { return differences.map { $0.description + "\n" }.joined() }
        return differences.map { difference in
            let colour = switch difference {
            case .added: "\u{1B}[32m"
            case .removed: "\u{1B}[31m"
            case .changed: "\u{1B}[33m"
            }
            return colour + TerminalText.escaped(difference.description) + "\u{1B}[0m\n"
        }.joined()
    }

    /// A JSON array with one object per line:
    /// `{"change": "changed", "path": "CFBundleVersion", "old": "142", "oldType": "string", "new": "143", "newType": "string"}`.
    /// `old`/`oldType` appear for removed and changed values, `new`/`newType` for added and
    /// changed ones. Values are JSON where JSON can hold them; dates are ISO-8601 strings,
    /// data base64 strings, UIDs `{"CF$UID": n}`, nan and infinities the strings `nan`,
    /// `inf`, `-inf` (the type fields tell them apart from real strings).
    public static func jsonReport(_ differences: [PlistDifference]) -> String {
        guard !differences.isEmpty else { return "[]\n" }
        let lines = differences.map { difference in
            var members = [JSONMember("change", .string(difference.kind)), JSONMember("path", .string(difference.pathDescription))]
            func field(_ name: String, _ value: PlistValue) {
                members += [JSONMember(name, value.reportJSONValue), JSONMember(name + "Type", .string(value.typeName))]
            }
            switch difference {
            case .added(_, let value):
                field("new", value)
            case .removed(_, let value):
                field("old", value)
            case .changed(_, let old, let new):
                field("old", old)
                field("new", new)
            }
            return "  " + JSONWriter.inlineText(.object(members))
        }
        return "[\n" + lines.joined(separator: ",\n") + "\n]\n"
    }
}
