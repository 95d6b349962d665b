import Diagnostics
import PropertyList
import System

/// Finds the bundles of an `.app` directory: the app, `Frameworks/*.framework`, loose
/// `Frameworks/*.dylib` (counted as the app's), `PlugIns/*.appex` and the frameworks and
/// loose dylibs an extension embeds itself, in the iOS layout (flat) and the macOS one
/// (`Contents/`, `MacOS/`, `Resources/`, `Versions/Current`). Watch apps (`Watch/*.app`)
/// are not walked.
public enum BundleInventory {
    /// The bundles of the app at `path`; a directory that cannot be listed or an Info.plist
    /// that cannot be read is an error line, and the rest is still found.
    public static func bundles(in path: String) -> (bundles: [NestedBundle], errors: [String]) {
        let app = path.hasSuffix("/") ? String(path.dropLast()) : path
        var errors: [String] = []
        let macOS = FileIO.isDirectory(app + "/Contents")
        let contents = macOS ? app + "/Contents" : app
        var main = bundle(app, kind: .app, macOS: macOS, errors: &errors)
        let appFrameworks = frameworks(in: contents + "/Frameworks", macOS: macOS, errors: &errors)
        main.binaries += appFrameworks.looseLibraries
        var found = appFrameworks.bundles
        for name in entries(contents + "/PlugIns", errors: &errors) where name.hasSuffix(".appex") {
            let path = contents + "/PlugIns/" + name
            var appex = bundle(path, kind: .appExtension, macOS: macOS, errors: &errors)
            // An extension may embed frameworks of its own (Xcode puts shared ones in the app's
            // Frameworks/, but a framework only the extension links can live in its bundle).
            let embedded = frameworks(in: (macOS ? path + "/Contents" : path) + "/Frameworks", macOS: macOS, errors: &errors)
            appex.binaries += embedded.looseLibraries
            found.append(appex)
            found += embedded.bundles
        }
        return ([main] + found, errors)
    }

    /// The `.framework` bundles and loose `.dylib`s of a `Frameworks/` directory.
    static func frameworks(in directory: String, macOS: Bool, errors: inout [String]) -> (bundles: [NestedBundle], looseLibraries: [String]) {
        var bundles: [NestedBundle] = []
        var loose: [String] = []
        for name in entries(directory, errors: &errors) {
            let child = directory + "/" + name
            if name.hasSuffix(".framework"), FileIO.isDirectory(child) {
                bundles.append(bundle(child, kind: .framework, macOS: macOS, errors: &errors))
            } else if name.hasSuffix(".dylib") {
                loose.append(child)
            }
        }
        return (bundles, loose)
    }

    /// One bundle: its executable from `CFBundleExecutable` (a framework's defaults to its
    /// name) and its manifest, where the platform keeps them.
    static func bundle(_ path: String, kind: NestedBundle.Kind, macOS: Bool, errors: inout [String]) -> NestedBundle {
        let fileName = path.split(separator: "/").last.map(String.init) ?? path
        let name = fileName.split(separator: ".").dropLast().joined(separator: ".")
        // macOS frameworks keep their files in Versions/Current (Resources/ for the plists);
        // macOS apps and extensions in Contents/.
        let root = !macOS ? path : kind == .framework ? path + "/Versions/Current" : path + "/Contents"
        let resources = !macOS ? root : root + "/Resources"
        let executableName = executable(infoPlist: resources + "/Info.plist", errors: &errors) ?? (kind == .framework ? name : nil)
        let executableDirectory = macOS && kind != .framework ? root + "/MacOS" : root
        var binaries: [String] = []
        if let executableName, !executableName.contains("/"), DirectoryWalk.type(of: executableDirectory + "/" + executableName) == .file {
            binaries.append(executableDirectory + "/" + executableName)
        }
        let manifest = resources + "/PrivacyInfo.xcprivacy"
        return NestedBundle(path: path, name: name, kind: kind, binaries: binaries,
                            privacyManifest: DirectoryWalk.type(of: manifest) == .missing ? nil : manifest,
                            infoPlist: resources + "/Info.plist")
    }

    /// `CFBundleExecutable` of the Info.plist at `path`; nil when there is none.
    static func executable(infoPlist path: String, errors: inout [String]) -> String? {
        do {
            let value = try PropertyListCoding.read(try FileIO.read(path, kind: .propertyList)).value
            if case .dictionary(let d) = value, case .string(let name)? = d["CFBundleExecutable"] { return name }
        } catch let error as FileIOError {
            if !error.isFileNotFound { errors.append("\(error.path): error: \(error.reason)") }
        } catch let error as PlistError {
            errors.append(error.diagnostic.inFile(path).description)
        } catch {
            errors.append("\(path): error: \(error)")
        }
        return nil
    }

    /// The names in `directory`, sorted; none when it does not exist.
    static func entries(_ directory: String, errors: inout [String]) -> [String] {
        guard FileIO.isDirectory(directory) else { return [] }
        do { return try FileIO.directoryEntries(directory).sorted() } catch {
            errors.append("\(error.path): error: \(error.reason)")
            return []
        }
    }
}
