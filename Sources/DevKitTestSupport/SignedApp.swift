import Foundation

/// Runs `Scripts/fixtures/make-signed-app` (code-signed apps with a framework and an
/// extension, profiles, and copies damaged one way each; see its header) once per test
/// process, into a temporary directory.
public enum SignedApp {
    /// The directory the script wrote, or why it could not run.
    static let made: (directory: URL?, error: String) = {
        do {
            let directory = try TestProcess.temporaryDirectory("devkit-signed")
            let script = PrivacyApp.repoRoot.appendingPathComponent("Scripts/fixtures/make-signed-app").path
            let output = try TestProcess.run("/usr/bin/env", ["python3", script, directory.path])
            return output.status == 0 ? (directory, "") : (nil, "make-signed-app: \(output.stderr)")
        } catch {
            return (nil, "make-signed-app: \(error)")
        }
    }()

    /// The path of `name` in the script's output directory.
    public static func path(_ name: String) throws -> String {
        guard let directory = made.directory else { throw ProfileFactory.Failure(description: made.error) }
        return directory.appendingPathComponent(name).path
    }
}
