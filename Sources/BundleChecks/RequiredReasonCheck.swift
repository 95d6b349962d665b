import Diagnostics
import LintKit

/// `devkit lint App.app`'s bundle check: every binary of the app, its frameworks and its
/// extensions, scanned for required-reason API imports and judged by the bundle rules
/// against the privacy manifest of the bundle that contains it.
public struct RequiredReasonCheck: DirectoryCheck {
    public init() {}

    public func applies(to directory: String) -> Bool {
        var name = Substring(directory)
        while name.hasSuffix("/") { name = name.dropLast() }
        return name.hasSuffix(".app")
    }

    public func check(_ directory: String, engine: LintEngine) -> (findings: [Finding], inputErrors: [String]) {
        let (bundles, errors) = BundleInventory.bundles(in: directory)
        var findings: [Finding] = []
        var inputErrors = errors
        for bundle in bundles {
            let declared: [String]
            do { declared = try RequiredReasonScan.declaredCategories(manifest: bundle.privacyManifest) } catch {
                inputErrors.append(error.description)
                continue
            }
            for binary in bundle.binaries {
                do {
                    let uses = try RequiredReasonScan.uses(binary: binary)
                    let subject = RequiredReasonScan.subject(binary: binary, bundle: bundle, declared: declared, uses: uses)
                    findings += engine.lint(BundleRules.file(path: binary, subject: subject))
                } catch {
                    inputErrors.append(error.description)
                }
            }
        }
        return (findings, inputErrors)
    }
}
