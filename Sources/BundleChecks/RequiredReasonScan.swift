import BinaryReading
import Diagnostics
import ObjectFile
import PlistChecks
import PropertyList
import System

/// What the bundle rules need to know about one binary: which required-reason APIs it
/// imports (`PrivacyCatalog`'s symbols) and which categories its bundle's privacy manifest
/// declares, as the dictionary the rules read (`FileKind.bundleBinary`).
public enum RequiredReasonScan {
    /// One imported symbol that reveals a required-reason API.
    public struct Use: Sendable, Equatable {
        public var symbol: String
        /// The API as Apple's page names it (`stat`, `UserDefaults`).
        public var api: String
        public var library: String?
        /// Every category the symbol's API is listed in (`getattrlist` is in two).
        public var categories: [String]
    }

    /// Which categories each symbol reveals, from `PrivacyCatalog`.
    static let categoriesBySymbol: [String: (api: String, categories: [String])] = {
        var table: [String: (api: String, categories: [String])] = [:]
        for category in PrivacyCatalog.apiCategories {
            for (symbol, api) in category.symbols { table[symbol, default: (api, [])].categories.append(category.name) }
        }
        return table
    }()

    /// The required-reason APIs `path` imports, over every slice of a fat file, each symbol
    /// once. Errors name the file (and the offset, for a damaged Mach-O).
    public static func uses(binary path: String) throws(Diagnostic) -> [Use] {
        let file: MappedFile
        do { file = try MappedFile(path: path) } catch { throw Diagnostic(file: error.path, message: error.reason, kind: .io) }
        var uses: [Use] = []
        var seen = Set<String>()
        // The mapping must outlive every read of its bytes.
        try withExtendedLifetime(file) { () throws(Diagnostic) in
            do throws(DecodeError) {
                for image in try MachOFile.images(file.bytes) {
                    for imported in try MachOImports.read(image, bytes: image.bytes(in: file.bytes)) {
                        // x86_64 libc names some of these with a suffix (`_stat$INODE64`).
                        let name = imported.name.split(separator: "$", maxSplits: 1).first.map(String.init) ?? imported.name
                        let symbol = imported.name.hasPrefix("_OBJC_CLASS_$_") ? imported.name : name
                        guard let entry = categoriesBySymbol[symbol], seen.insert(symbol).inserted else { continue }
                        uses.append(Use(symbol: symbol, api: entry.api, library: imported.library, categories: entry.categories))
                    }
                }
            } catch {
                throw error.diagnostic.inFile(path)
            }
        }
        return uses
    }

    /// The categories the manifest at `path` names in `NSPrivacyAccessedAPITypes` (whatever
    /// their reasons: the privacy-manifest rules judge those); none for no manifest or one
    /// that does not parse (`plist.syntax` reports that while the bundle's files are linted).
    public static func declaredCategories(manifest path: String?) throws(Diagnostic) -> [String] {
        guard let path else { return [] }
        let bytes: [UInt8]
        do { bytes = try FileIO.read(path, kind: .propertyList) } catch { throw Diagnostic(file: error.path, message: error.reason, kind: .io) }
        guard let value = try? PropertyListCoding.read(bytes).value else { return [] }
        return (value[key: "NSPrivacyAccessedAPITypes"]?.arrayValue ?? []).compactMap { $0[key: "NSPrivacyAccessedAPIType"]?.stringValue }
    }

    /// The dictionary the bundle rules read for `binary` of `bundle`.
    public static func subject(binary: String, bundle: NestedBundle, declared: [String], uses: [Use]) -> PlistValue {
        var fields: [(String, PlistValue)] = [
            ("binary", .string(binary)), ("bundle", .string(bundle.path)), ("bundleName", .string(bundle.name)),
            ("bundleKind", .string(bundle.kind.rawValue)),
        ]
        if let manifest = bundle.privacyManifest { fields.append(("privacyManifest", .string(manifest))) }
        fields.append(("declaredCategories", .array(declared.map(PlistValue.string))))
        fields.append(("requiredReasonImports", .array(uses.map { use in
            var entry: [(String, PlistValue)] = [("symbol", .string(use.symbol)), ("api", .string(use.api))]
            if let library = use.library { entry.append(("library", .string(library))) }
            entry.append(("categories", .array(use.categories.map(PlistValue.string))))
            return .dictionary(.init(uniqueKeysWithValues: entry))
        })))
        return .dictionary(.init(uniqueKeysWithValues: fields))
    }
}
