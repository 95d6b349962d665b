import PropertyList

/// The classifier of a registry whose pack recognises no kinds of its own: property lists
/// and `.strings` files by extension.
public struct PropertyListFiles: FileClassifier {
    public init() {}

    public var kinds: Set<FileKind> { [.propertyList, .strings] }

    public func kind(forName path: String) -> FileKind? {
        if nameEnds(path, with: ".strings") { return .strings }
        if nameEnds(path, with: ".plist") || nameEnds(path, with: ".stringsdict") { return .propertyList }
        return nil
    }

    public func refine(_ kind: FileKind, value: PlistValue) -> FileKind { kind }
}
