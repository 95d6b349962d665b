import PropertyList

/// What a file is, which decides the rules that check it. Other rule packs may add kinds
/// (`FileKind(rawValue: "provisioning-profile")`).
public struct FileKind: RawRepresentable, Hashable, Sendable, Comparable, CustomStringConvertible {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// An app or extension's `Info.plist` (`Info.plist`, `*-Info.plist`).
    public static let infoPlist = FileKind(rawValue: "info-plist")
    /// Code-signing entitlements (`*.entitlements`, `*.xcent`).
    public static let entitlements = FileKind(rawValue: "entitlements")
    /// An over-the-air install manifest (a plist whose `items` hold `assets`), recognised by content.
    public static let otaManifest = FileKind(rawValue: "ota-manifest")
    /// Any other property list (`*.plist`, `*.stringsdict`, files named on the command line).
    public static let propertyList = FileKind(rawValue: "plist")
    /// A `.strings` file (OpenStep syntax).
    public static let strings = FileKind(rawValue: "strings")

    /// Every kind that holds a structured property list (all but `.strings`).
    public static let structured: Set<FileKind> = [.infoPlist, .entitlements, .otaManifest, .propertyList]
    public static let all: Set<FileKind> = structured.union([.strings])

    public var description: String { rawValue }
    public static func < (a: FileKind, b: FileKind) -> Bool { a.rawValue < b.rawValue }

    /// The kind a file name suggests; nil for names a directory walk skips.
    public static func byName(_ path: String) -> FileKind? {
        // Byte comparisons: String.hasSuffix compares by Unicode canonical equivalence, which
        // showed up in profiles of a walk over thousands of files.
        let name = path.utf8
        func ends(_ suffix: StaticString) -> Bool {
            let s = UnsafeBufferPointer(start: suffix.utf8Start, count: suffix.utf8CodeUnitCount)
            return name.count >= s.count && name.suffix(s.count).elementsEqual(s)
        }
        if ends("Info.plist") { return .infoPlist }
        if ends(".entitlements") || ends(".xcent") { return .entitlements }
        if ends(".strings") { return .strings }
        if ends(".plist") || ends(".stringsdict") { return .propertyList }
        return nil
    }

    /// Refines a by-name kind from the content: a generic plist whose `items` is an array of
    /// dictionaries holding `assets` is an OTA manifest (they are often named `manifest.plist`).
    public static func refine(_ kind: FileKind, value: PlistValue) -> FileKind {
        guard kind == .propertyList, let items = value[key: "items"]?.arrayValue,
              items.contains(where: { $0[key: "assets"] != nil }) else { return kind }
        return .otaManifest
    }
}
