import Foundation

/// The third-party corpus at `<repo>/../shared/corpus`, read in place (never copied: its
/// licences are not ours).
enum Corpus {
    static let repoRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    static let root = repoRoot.deletingLastPathComponent().appendingPathComponent("shared/corpus")

    /// Files in `corpus/<subdirectory>`, sorted; nil (after printing the skip notice) when the
    /// corpus is absent.
    static func files(_ subdirectory: String) -> [URL]? {
        let dir = root.appendingPathComponent(subdirectory)
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: dir.path) else {
            print("skipped: ../shared/corpus not present")
            return nil
        }
        return names.sorted().map { dir.appendingPathComponent($0) }
    }

    static func bytes(_ url: URL) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: url))
    }
}

/// A seeded xorshift generator: property tests are random but reproducible.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed == 0 ? 0x9E37_79B9_7F4A_7C15 : seed }
    mutating func next() -> UInt64 {
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        return state
    }
}
