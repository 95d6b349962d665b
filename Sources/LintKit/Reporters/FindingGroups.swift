/// Findings grouped by file for the reporters whose formats nest findings in a file element
/// (JUnit, Checkstyle): files in the order their first finding appears, each file's findings
/// in their order.
enum FindingGroups {
    static func byFile(_ findings: [Finding]) -> [(file: String, findings: [Finding])] {
        var groups: [(file: String, findings: [Finding])] = []
        var index: [String: Int] = [:]
        for finding in findings {
            if let i = index[finding.file] {
                groups[i].findings.append(finding)
            } else {
                index[finding.file] = groups.count
                groups.append((finding.file, [finding]))
            }
        }
        return groups
    }
}
