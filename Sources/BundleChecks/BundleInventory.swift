import Diagnostics
import PropertyList
import System

/// Finds the bundles of an `.app` directory: the app, `Frameworks/*.framework`, loose
/// `Frameworks/*.dylib` (counted as the app's) and `PlugIns/*.appex`, in the iOS layout
/// (flat) and the macOS one (`Contents/`, `MacOS/`, `Resources/`, `Versions/Current`).
public enum BundleInventory {
    /// The bundles of the app at `path`; a directory that cannot be listed or an Info.plist
    /// that cannot be read is an error line, and the rest is still found.
    public static func bundles(in path: String) -> (bundles: [NestedBundle], errors: [String]) {
        let app = path.hasSuffix("/") ? String(path.dropLast()) : path
        var errors: [String] = []
        let macOS = FileIO.isDirectory(app + "/Contents")
        let contents = macOS ? app + "/Contents" : app
        var main = bundle(app, kind: .app, macOS: macOS, errors: &errors)
        var found: [NestedBundle] = []
        for name in entries(contents + "/Frameworks", errors: &errors) {
            let child = contents + "/Frameworks/" + name
            if name.hasSuffix(".framework"), FileIO.isDirectory(child) {
                found.append(bundle(child, kind: .framework, macOS: macOS, errors: &errors))
            } else if name.hasSuffix(".dylib") {
                main.binaries.append(child)
            }
        }
        for name in entries(contents + "/PlugIns", errors: &errors) where name.hasSuffix(".appex") {
            found.append(bundle(contents + "/PlugIns/" + name, kind: .appExtension, macOS: macOS, errors: &errors))
        }
        return ([main] + found, errors)
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
