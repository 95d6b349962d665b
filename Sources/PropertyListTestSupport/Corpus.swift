import Foundation

/// The third-party corpus at `<repo>/../shared/corpus`, read in place (never copied: its
/// licences are not ours).
public enum Corpus {
    /// This file is Sources/PropertyListTestSupport/Corpus.swift.
    public static let repoRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    public static let root = repoRoot.deletingLastPathComponent().appendingPathComponent("shared/corpus")

    /// Files in `corpus/<subdirectory>`, sorted; nil (after printing the skip notice) when the
    /// corpus is absent.
    public static func files(_ subdirectory: String) -> [URL]? {
        let dir = root.appendingPathComponent(subdirectory)
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: dir.path) else {
            print("skipped: ../shared/corpus not present")
            return nil
        }
        return names.sorted().map { dir.appendingPathComponent($0) }
    }

    public static func bytes(_ url: URL) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: url))
    }
}
