import Foundation

/// Runs `Scripts/fixtures/make-privacy-app` (apps with frameworks, an extension and privacy
/// manifests right and wrong, and Mach-O executables importing chosen symbols; see its header)
/// once per test process, into a temporary directory.
public enum PrivacyApp {
    /// The repository checkout (three levels above this file).
    public static let repoRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The directory the script wrote, or why it could not run.
    static let made: (directory: URL?, error: String) = {
        do {
            let directory = try TestProcess.temporaryDirectory("devkit-privacy")
            let script = repoRoot.appendingPathComponent("Scripts/fixtures/make-privacy-app").path
            let output = try TestProcess.run("/usr/bin/env", ["python3", script, directory.path])
            return output.status == 0 ? (directory, "") : (nil, "make-privacy-app: \(output.stderr)")
        } catch {
            return (nil, "make-privacy-app: \(error)")
        }
    }()

    /// The path of `name` in the script's output directory.
    public static func path(_ name: String) throws -> String {
        guard let directory = made.directory else { throw ProfileFactory.Failure(description: made.error) }
        return directory.appendingPathComponent(name).path
    }
}
