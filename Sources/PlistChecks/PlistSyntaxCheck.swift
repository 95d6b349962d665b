import Diagnostics
import System
import LintKit
import PropertyList

/// Checks that files are readable, well-formed property lists (any format).
///
/// Rule ids: `plist.syntax` (the file does not parse), `plist.io` (it cannot be read),
/// `plist.reader-warning` (it parses, with a reader remark such as a binary set).
public enum PlistSyntaxCheck {
    public static func check(path: String, format: PlistFormat? = nil) -> [Finding] {
        let bytes: [UInt8]
        do {
            bytes = try FileIO.read(path, kind: .propertyList)
        } catch {
            return [Finding(file: path, location: nil, severity: .error, ruleID: "plist.io", message: error.reason)]
        }
        do {
            let document = try PropertyListCoding.read(bytes, format: format)
            return document.warnings.map {
                Finding(file: path, location: $0.position, severity: .warning,
                        ruleID: LintEngine.readerWarningRuleID, message: $0.message)
            }
        } catch {
            return [Finding(file: path, location: error.position, severity: .error,
                            ruleID: LintEngine.syntaxRuleID, message: error.message)]
        }
    }
}
