@testable import PlistTools
import PropertyList
import PropertyListTestSupport
import Testing

extension ValueGenerator {
    /// Six random edits of `original` (refused ones skipped), each applied both through the
    /// lossless editor and to the value model: after each, the edited bytes must read back as
    /// the edited value. `detail` adds the bytes' text to a failure's message.
    mutating func expectEditsAgreeWithValueEdits(
        of original: [UInt8], seed: UInt64, detail: (([UInt8]) -> String)? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        var bytes = original
        var expected = try PropertyListCoding.read(bytes).value
        for _ in 0..<6 {
            let edit = edit(in: expected)
            guard (try? edit.check(in: expected)) != nil else { continue }
            edit.apply(to: &expected)
            bytes = try PlistEditor.apply([edit], to: bytes)
            let message = detail.map { "seed \(seed): \(edit)\n\($0(bytes))" } ?? "seed \(seed): \(edit)"
            #expect(try PropertyListCoding.read(bytes).value == expected, Comment(rawValue: message), sourceLocation: sourceLocation)
        }
    }

    /// A random edit of `root`: mostly valid ones (an existing path, a free key, an index in
    /// range), sometimes not, so both the edit and its refusal are exercised.
    mutating func edit(in root: PlistValue) -> PlistEdit {
        // Walk down to a random container.
        var path: [String] = []
        var current = root
        while Int.random(in: 0..<3, using: &rng) > 0 {
            switch current {
            case .dictionary(let dict) where !dict.isEmpty:
                let key = dict.keys[Int.random(in: 0..<dict.count, using: &rng)]
                guard let next = dict[key], next.isContainer else { break }
                path.append(key)
                current = next
                continue
            case .array(let items) where !items.isEmpty:
                let index = Int.random(in: 0..<items.count, using: &rng)
                guard items[index].isContainer else { break }
                path.append(String(index))
                current = items[index]
                continue
            default: break
            }
            break
        }
        let children: [String] = switch current {
        case .dictionary(let dict): Array(dict.keys)
        case .array(let items): items.indices.map { String($0) }
        default: []
        }
        let existing = children.isEmpty ? nil : children[Int.random(in: 0..<children.count, using: &rng)]
        switch Int.random(in: 0..<5, using: &rng) {
        case 0 where existing != nil:
            return .replace(KeyPath(path + [existing!]), value(depth: 2))
        case 1 where existing != nil:
            return .delete(KeyPath(path + [existing!]))
        case 2 where existing != nil:
            return .renameKey(KeyPath(path + [existing!]), to: "renamed-\(string().prefix(6))")
        default:
            if case .array(let items) = current {
                return .insert(KeyPath(path + [String(Int.random(in: 0...items.count, using: &rng))]), value(depth: 2))
            }
            return .insert(KeyPath(path + ["new-\(string().prefix(8))"]), value(depth: 2))
        }
    }
}

extension PlistValue {
    var isContainer: Bool {
        switch self {
        case .array, .dictionary: true
        default: false
        }
    }
}
