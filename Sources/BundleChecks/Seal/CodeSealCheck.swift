import Diagnostics
import LintKit
import PropertyList

/// `devkit lint App.app`'s signature check: each signed binary of the app, its frameworks and
/// its extensions against its code signature, each bundle's `_CodeSignature/CodeResources`
/// against its files, and each bundle's embedded profile against its own binary, judged by
/// the signature rules (`BundleRules.signatureRules`). Unsigned binaries are not judged: a
/// build product before signing is not what this check is for.
public struct CodeSealCheck: DirectoryCheck {
    public init() {}

    public func applies(to directory: String) -> Bool {
        RequiredReasonCheck().applies(to: directory)
    }

    public func check(_ directory: String, engine: LintEngine) -> (findings: [Finding], inputErrors: [String]) {
        let (bundles, errors) = BundleInventory.bundles(in: directory)
        let app = bundles.first { $0.kind == .app }?.path ?? directory
        let unpacked = UnpackedDigests.read(app: app)
        var findings: [Finding] = []
        var inputErrors = errors
        for bundle in bundles {
            for binary in bundle.binaries {
                do {
                    guard let subject = try SignatureInspection.subject(binary: binary, bundle: bundle, isExecutable: Self.isExecutable(binary, of: bundle),
                                                                           unpacked: unpacked, appRoot: app) else { continue }
                    findings += engine.lint(BundleRules.file(path: binary, subject: subject, kind: .bundleSignature)).map { Self.locate($0, in: subject) }
                } catch {
                    inputErrors.append(error.description)
                }
            }
        }
        return (findings, inputErrors)
    }

    /// A bundle's executable is its first binary; an app's others are loose dylibs of `Frameworks/`.
    static func isExecutable(_ binary: String, of bundle: NestedBundle) -> Bool {
        bundle.binaries.first == binary && !binary.hasSuffix(".dylib")
    }

    /// The finding moved to the file and byte offset its entry names (a resource, a place in
    /// the binary), so it reads like every other finding.
    static func locate(_ finding: Finding, in subject: PlistValue) -> Finding {
        guard let components = finding.keyPath?.components, !components.isEmpty else { return finding }
        // The innermost entry on the path that names a file (and offset) wins.
        var value: PlistValue? = subject
        var located = finding
        for component in components {
            switch value {
            case .dictionary(let d)?: value = d[component]
            case .array(let a)?: value = Int(component).flatMap { a.indices.contains($0) ? a[$0] : nil }
            default: value = nil
            }
            if let file = value?[key: "file"]?.stringValue {
                located.file = file
                located.location = value?[key: "offset"]?.intValue.map { .byteOffset($0) }
            }
        }
        return located
    }
}
