import PropertyList

/// Applies findings' fixes to a file's bytes: sets and deletes through the lossless XML
/// editor (`XMLPlistDocument`), so every byte outside the edited nodes stays; a reformat
/// last, through the canonical formatter. Only XML files are fixed in place.
public enum FixApplier {
    /// The fixed bytes; throws when an edit fails (the caller leaves the file alone).
    public static func apply(_ fixes: [PlistFix], to bytes: [UInt8]) throws(PlistError) -> [UInt8] {
        guard PlistFormat.detect(bytes) == .xml else {
            throw PlistError(position: nil, message: "fixes are applied to XML property lists only")
        }
        var document = try XMLPlistDocument(bytes: bytes)
        var deletes: [KeyPath] = []
        var reformat = false
        for fix in Set(fixes) {
            switch fix {
            case .set(let path, let value): try document.set(path, to: value)
            case .delete(let path): deletes.append(path)
            case .reformat: reformat = true
            }
        }
        // Later array elements first, so earlier indices stay valid.
        for path in deletes.sorted(by: { later($0.components, than: $1.components) }) {
            try document.delete(path)
        }
        guard reformat else { return document.bytes }
        return try PlistFormatter().format(document.bytes, as: .xml).bytes
    }

    private static func later(_ a: [String], than b: [String]) -> Bool {
        for (x, y) in zip(a, b) where x != y {
            if let i = Int(x), let j = Int(y) { return i > j }
            return x > y
        }
        return a.count > b.count
    }
}
