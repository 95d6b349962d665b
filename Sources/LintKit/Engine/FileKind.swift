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

/// How the checked product was built (`--configuration`).
public enum BuildConfiguration: String, Sendable, Hashable, CaseIterable {
    case debug, release
}

/// Facts about the run that rules may use, set from the command line.
public struct LintOptions: Sendable, Hashable {
    /// The files are a built product (`--built-product`): build settings must be expanded.
    public var isBuiltProduct: Bool
    /// The configuration the files are meant for (`--configuration`); nil when not said.
    public var configuration: BuildConfiguration?
    /// Names of the files in the project folder (`--project-dir`), for rules that check a
    /// key names an existing file; nil when no project folder was given.
    public var projectFileNames: Set<String>?
    /// The app's Info.plist (`--app`), for rules comparing a manifest to it.
    public var appInfo: PlistValue?

    public init(isBuiltProduct: Bool = false, configuration: BuildConfiguration? = nil,
                projectFileNames: Set<String>? = nil, appInfo: PlistValue? = nil) {
        self.isBuiltProduct = isBuiltProduct
        self.configuration = configuration
        self.projectFileNames = projectFileNames
        self.appInfo = appInfo
    }
}

/// One parsed file, as rules see it.
public struct LintFile: Sendable {
    /// The path as the user named it (or as the walk found it).
    public let path: String
    public let kind: FileKind
    public let format: PlistFormat
    /// The file's bytes as read.
    public let bytes: [UInt8]
    public let value: PlistValue
    public let options: LintOptions

    public init(path: String, kind: FileKind, format: PlistFormat, bytes: [UInt8], value: PlistValue, options: LintOptions) {
        self.path = path
        self.kind = kind
        self.format = format
        self.bytes = bytes
        self.value = value
        self.options = options
    }

    /// The root dictionary's value for `key`.
    public subscript(key: String) -> PlistValue? { value[key: key] }
}
