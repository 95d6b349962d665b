import Foundation

/// Runs `Scripts/fixtures/make-test-app` (an app, .ipa and hostile archives; see its header).
public enum TestApp {
    public static func make(in directory: URL, profile: URL?, repoRoot: URL, bundleID: String = "com.example.app", entitlementsJSON: String? = nil, infoJSON: String? = nil, fat: Bool = false) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        var arguments = ["python3", repoRoot.appendingPathComponent("Scripts/fixtures/make-test-app").path, directory.path, "--bundle-id", bundleID]
        if let profile { arguments += ["--profile", profile.path] }
        if let entitlementsJSON { arguments += ["--entitlements", entitlementsJSON] }
        if let infoJSON { arguments += ["--info", infoJSON] }
        if fat { arguments.append("--fat") }
        process.arguments = arguments
        let err = Pipe()
        process.standardError = err
        try process.run()
        let errors = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw ProfileFactory.Failure(description: "make-test-app: \(String(decoding: errors, as: UTF8.self))")
        }
    }
}
