import PropertyList

/// Edits property-list files. XML and OpenStep/.strings are edited in place (only the edited
/// node's bytes change, see `XMLPlistDocument`, `OpenStepPlistDocument`); binary and JSON by value (read, modify, write in the same format:
/// there is no layout to keep in binary, and devkit's JSON writer is the only JSON layout).
///
/// Every edit is checked on the value first (`PlistEdit.check(in:)`), so errors name the key
/// path in the same words whatever the format; on an error nothing is returned to write.
public enum PlistEditor {
    /// The file's bytes after `edits`, applied in order.
    public static func apply(_ edits: [PlistEdit], to bytes: [UInt8]) throws(PlistError) -> [UInt8] {
        switch try editableFormat(bytes) {
        case .xml:
            var document = try XMLPlistDocument(bytes: bytes, focus: edits.first?.path ?? KeyPath([]))
            for edit in edits { try document.apply(edit) }
            return document.bytes
        case .openStep:
            var document = try OpenStepPlistDocument(bytes: bytes)
            for edit in edits { try document.apply(edit) }
            return document.bytes
        case let format:
            var root = try PropertyListCoding.read(bytes, format: format).value
            for edit in edits {
                try edit.check(in: root)
                edit.apply(to: &root)
            }
            return try PropertyListCoding.write(root, as: format)
        }
    }

    /// The value in `bytes` (any format), for callers that compute edits from it.
    public static func value(of bytes: [UInt8]) throws(PlistError) -> PlistValue {
        _ = try editableFormat(bytes)
        return try PropertyListCoding.read(bytes).value
    }

    /// The file's bytes with the value at `path` set from `text`. The type is `type`, or else
    /// the existing value's type (a new key defaults to string). A missing parent dictionary
    /// is an error unless `createParents`, which adds the missing dictionaries.
    public static func set(_ bytes: [UInt8], at path: KeyPath, text: String, type: PlistEditType?, createParents: Bool = false) throws(PlistError) -> [UInt8] {
        let root = try value(of: bytes)
        return try apply([setEdit(in: root, at: path, text: text, type: type, createParents: createParents)], to: bytes)
    }

    /// The edit `plist set` makes: a replacement, or an insertion of a new key (wrapped in new
    /// dictionaries for the missing parents when `createParents`).
    public static func setEdit(in root: PlistValue, at path: KeyPath, text: String, type: PlistEditType?, createParents: Bool) throws(PlistError) -> PlistEdit {
        if let existing = try? root.value(at: path) {
            return .replace(path, try newValue(existing: existing, path: path, text: text, type: type))
        }
        let value = try newValue(existing: nil, path: path, text: text, type: type)
        guard !path.components.isEmpty else { return .replace(path, value) }
        // The deepest prefix of `path` that exists.
        var depth = path.components.count - 1
        while depth > 0, (try? root.value(at: KeyPath(Array(path.components[..<depth])))) == nil { depth -= 1 }
        let missingParents = path.components.count - 1 - depth
        if missingParents > 0 {
            guard createParents else {
                let parent = KeyPath(Array(path.components[..<(depth + 1)]))
                throw PlistError(position: nil, message: "cannot set \"\(path)\": \"\(parent)\" does not exist (--create-parents adds missing dictionaries)")
            }
            guard case .dictionary? = try? root.value(at: KeyPath(Array(path.components[..<depth]))) else {
                let at = KeyPath(Array(path.components[..<depth]))
                throw PlistError(position: nil, message: "cannot set \"\(path)\": --create-parents adds dictionaries only inside a dictionary, and \"\(at)\" is not one")
            }
        }
        // A new key in an existing dictionary; `check` reports any other parent.
        var wrapped = value
        for key in path.components[(depth + 1)...].reversed() {
            wrapped = .dictionary([key: wrapped])
        }
        let edit = PlistEdit.insert(KeyPath(Array(path.components[...depth])), wrapped)
        if case .array? = try? root.value(at: path.parent) {
            throw PlistError(position: nil, message: "cannot set \"\(path)\": there is no element \(path.components.last ?? "") (use insert to add array elements)")
        }
        try edit.check(in: root, verb: "set")
        return edit
    }

    /// The file's bytes without the dictionary entry or array element at `path`.
    public static func delete(_ bytes: [UInt8], at path: KeyPath) throws(PlistError) -> [UInt8] {
        try apply([.delete(path)], to: bytes)
    }

    /// The edit `plist insert` makes: the last component is an array index, `-1` or `end`
    /// (append), or a new dictionary key.
    public static func insertEdit(in root: PlistValue, at path: KeyPath, text: String, type: PlistEditType?) throws(PlistError) -> PlistEdit {
        var path = path
        if let last = path.components.last, last == "-1" || last == "end",
           case .array(let items)? = try? root.value(at: path.parent) {
            path.components[path.components.count - 1] = String(items.count)
        }
        let edit = PlistEdit.insert(path, try newValue(existing: nil, path: path, text: text, type: type))
        try edit.check(in: root)
        return edit
    }

    /// The edits that merge `other` into the value at `path` of `root`: dictionaries key by
    /// key (recursively), arrays by appending the elements they lack. A key whose value differs
    /// is replaced with `overwrite`, else left alone and listed in `skipped`.
    public static func mergeEdits(in root: PlistValue, other: PlistValue, at path: KeyPath, overwrite: Bool) throws(PlistError) -> (edits: [PlistEdit], skipped: [KeyPath]) {
        let target = try PlistEdit.existing(root, path, verb: "merge into")
        var edits: [PlistEdit] = []
        var skipped: [KeyPath] = []
        func merge(_ target: PlistValue, _ source: PlistValue, _ path: KeyPath) throws(PlistError) {
            switch (target, source) {
            case (.dictionary(let mine), .dictionary(let theirs)):
                for (key, theirValue) in theirs {
                    let child = path.appending(key)
                    guard let myValue = mine[key] else {
                        edits.append(.insert(child, theirValue))
                        continue
                    }
                    switch (myValue, theirValue) {
                    case (.dictionary, .dictionary), (.array, .array): try merge(myValue, theirValue, child)
                    case _ where myValue == theirValue: continue
                    case _ where overwrite: edits.append(.replace(child, theirValue))
                    default: skipped.append(child)
                    }
                }
            case (.array(let mine), .array(let theirs)):
                var count = mine.count
                for item in theirs where !mine.contains(item) {
                    edits.append(.insert(path.appending(String(count)), item))
                    count += 1
                }
            case (.array(let mine), _):
                if !mine.contains(source) { edits.append(.insert(path.appending(String(mine.count)), source)) }
            default:
                throw PlistError(position: nil, message: "cannot merge a \(source.typeName) into \"\(path)\", a \(target.typeName) (only into a dictionary or an array)")
            }
        }
        try merge(target, other, path)
        return (edits, skipped)
    }

    /// `bytes` (XML or OpenStep) edited in place so that they hold `target`: the differences
    /// between the file's value and `target` become edits (removals deepest and last index
    /// first, in old indices; then additions in order, then changes, in new indices). Nil when
    /// the file is not a text format or the result would not hold exactly `target` (key order
    /// included); the caller then writes `target` whole. For tools that compute a whole new
    /// value (PlistBuddy scripts) but should still change only what changed.
    public static func losslessRewrite(_ bytes: [UInt8], to target: PlistValue) -> [UInt8]? {
        let format = PlistFormat.detect(bytes)
        guard format == .xml || format == .openStep, let root = try? value(of: bytes) else { return nil }
        var removals: [PlistEdit] = [], additions: [PlistEdit] = [], changes: [PlistEdit] = []
        for difference in root.differences(to: target) {
            switch difference {
            case .removed(let path, _): removals.append(.delete(path))
            case .added(let path, let value): additions.append(.insert(path, value))
            case .changed(let path, _, let new): changes.append(.replace(path, new))
            }
        }
        removals.sort { Self.pathPrecedes($1.path, $0.path) }
        additions.sort { Self.pathPrecedes($0.path, $1.path) }
        guard let edited = try? apply(removals + additions + changes, to: bytes),
              (try? PropertyListCoding.read(edited).value) == target else { return nil }
        return edited
    }

    /// Key-path order with array indices compared as numbers.
    private static func pathPrecedes(_ a: KeyPath, _ b: KeyPath) -> Bool {
        for (x, y) in zip(a.components, b.components) where x != y {
            if let i = Int(x), let j = Int(y) { return i < j }
            return x < y
        }
        return a.components.count < b.components.count
    }

    private static func editableFormat(_ bytes: [UInt8]) throws(PlistError) -> PlistFormat {
        guard !bytes.isEmpty else { throw PlistError(position: .byteOffset(0), message: "file is empty") }
        return PlistFormat.detect(bytes)
    }

    /// The value to store: `text` parsed as `type`, or as the existing value's type.
    static func newValue(existing: PlistValue?, path: KeyPath, text: String, type: PlistEditType?) throws(PlistError) -> PlistValue {
        if let existing, type == nil, PlistEditType(of: existing) == nil {
            throw PlistError(position: nil, message: "cannot set \"\(path)\": it is a \(existing.typeName); pass --type json or --type xml with the new \(existing.typeName)")
        }
        let existingType = existing.flatMap { PlistEditType(of: $0) }
        let chosen = type ?? existingType ?? .string
        if chosen == .json || chosen == .xml {
            do { return try chosen.container(from: text) } catch {
                // The position is in the value's text, not in the file.
                let place = switch error.position {
                case .text(let line, let column)?: " at \(line):\(column) of the value"
                case .byteOffset(let offset)?: " at offset \(offset) of the value"
                case .line(let line)?: " at line \(line) of the value"
                case nil: ""
                }
                throw PlistError(position: nil, message: "cannot set \"\(path)\": the value is not a valid \(chosen.rawValue) property list\(place): \(error.message)")
            }
        }
        guard let value = chosen.value(from: text) else {
            let hint = type == nil && existingType != nil
                ? " (the existing value is of type \(chosen.rawValue); pass --type to change it)" : ""
            throw PlistError(position: nil, message: "cannot set \"\(path)\": \"\(text.prefix(40))\" is not a valid \(chosen.rawValue)\(hint)")
        }
        return value
    }
}
