import PlistTools
import PropertyList

/// Applies findings' fixes to a file's bytes: edits through `PlistEditor` (lossless for XML
/// and OpenStep: only the edited nodes' bytes change), then a reformat, if asked, through the
/// canonical formatter.
public enum FixApplier {
    /// The fixed bytes; throws when an edit fails (the caller leaves the file alone).
    public static func apply(_ fixes: [PlistFix], to bytes: [UInt8]) throws(PlistError) -> [UInt8] {
        var edits: [PlistEdit] = []
        var reformat = false
        var seen = Set<PlistFix>()
        for fix in fixes where seen.insert(fix).inserted {
            switch fix {
            case .edit(let edit): edits.append(edit)
            case .reformat: reformat = true
            }
        }
        // Deletions last and later array elements first, so the other paths stay valid.
        let (deletes, others) = (edits.filter(\.isDelete), edits.filter { !$0.isDelete })
        let ordered = others + deletes.sorted { later($0.path.components, than: $1.path.components) }
        let edited = ordered.isEmpty ? bytes : try PlistEditor.apply(ordered, to: bytes)
        guard reformat else { return edited }
        return try PlistFormatter().format(edited).bytes
    }

    private static func later(_ a: [String], than b: [String]) -> Bool {
        for (x, y) in zip(a, b) where x != y {
            if let i = Int(x), let j = Int(y) { return i > j }
            return x > y
        }
        return a.count > b.count
    }
}

private extension PlistEdit {
    var isDelete: Bool { if case .delete = self { true } else { false } }
}
