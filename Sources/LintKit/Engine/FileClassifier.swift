import PropertyList

/// How a rule pack tells its kinds of file apart: by name for a directory walk, then by
/// content once the file is parsed. A `RuleRegistry` carries its pack's classifier.
public protocol FileClassifier: Sendable {
    /// Every kind the pack knows (a config file's `kinds:` may name only these).
    var kinds: Set<FileKind> { get }
    /// The kind a file name suggests; nil for names a directory walk skips.
    func kind(forName path: String) -> FileKind?
    /// Refines a by-name kind from the parsed content.
    func refine(_ kind: FileKind, value: PlistValue) -> FileKind
    /// The one format a kind is read in, when it has one (a String Catalog is JSON whatever
    /// its first bytes look like); nil: detected from the content.
    func format(of kind: FileKind) -> PlistFormat?
}

extension FileClassifier {
    public func format(of kind: FileKind) -> PlistFormat? { nil }

    /// Whether `path` ends with `suffix`, byte for byte. String.hasSuffix compares by Unicode
    /// canonical equivalence, which showed up in profiles of a walk over thousands of files.
    public func nameEnds(_ path: String, with suffix: StaticString) -> Bool {
        let name = path.utf8
        let s = UnsafeBufferPointer(start: suffix.utf8Start, count: suffix.utf8CodeUnitCount)
        return name.count >= s.count && name.suffix(s.count).elementsEqual(s)
    }
}
