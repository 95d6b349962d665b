import LintKit
import PropertyList

/// Shared check of the two version keys.
enum VersionKeyCheck {
    static func check(_ key: String, _ file: LintFile, _ context: inout RuleContext, what: String) {
        guard let value = file[key] else { return }
        guard let version = value.stringValue else {
            context.report("\(key) must be a string, not \(value.typeName)", key: key)
            return
        }
        if ValueFormat.hasBuildVariable(version) || ValueFormat.isDottedIntegers(version) { return }
        let trimmed = ValueFormat.trimmed(version)
        let fix: PlistFix? = ValueFormat.isDottedIntegers(trimmed) ? .edit(.replace(KeyPath([key]), .string(trimmed))) : nil
        context.report("\(key) \"\(version)\" is not \(what)", key: key, fix: fix)
    }
}
