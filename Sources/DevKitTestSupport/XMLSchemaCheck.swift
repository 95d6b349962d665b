import Foundation

/// Validates XML against an XML Schema with the real `xmllint --noout --schema` (libxml2-utils,
/// installed by Scripts/install-deps), so reporters are checked by a validator devkit did not
/// write.
public enum XMLSchemaCheck {
    /// The XSDs in Tests/LintKitTests/Fixtures (`junit.xsd`, `checkstyle.xsd`).
    public static func schema(_ name: String) -> URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Tests/LintKitTests/Fixtures/\(name)")
    }

    /// xmllint's verdict on `document` against the schema `schemaName`: exit status and
    /// messages; nil when xmllint is not installed.
    public static func validate(_ document: String, against schemaName: String) throws -> TestProcess.Output? {
        guard let xmllint = TestProcess.find("xmllint") else { return nil }
        let directory = try TestProcess.temporaryDirectory("devkit-xsd")
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("report.xml")
        try Data(document.utf8).write(to: file)
        return try TestProcess.run(xmllint, ["--noout", "--schema", schema(schemaName).path, file.path])
    }
}
