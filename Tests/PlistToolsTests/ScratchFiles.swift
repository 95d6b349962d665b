import Foundation

/// Files in fresh temporary directories, removed with everything in them when the owner (a
/// test suite's instance: one per test) goes away.
final class ScratchFiles {
    private var directories: [URL] = []

    deinit {
        for directory in directories { try? FileManager.default.removeItem(at: directory) }
    }

    /// A new directory holding `name` with `contents`; returns the file's path.
    func file(_ name: String, _ contents: String) throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("devkit-plisttools-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        directories.append(directory)
        let url = directory.appendingPathComponent(name)
        try Data(contents.utf8).write(to: url)
        return url.path
    }
}
