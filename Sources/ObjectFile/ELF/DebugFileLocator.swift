import BinaryReading
import System

/// Where separate debug information for an ELF file may live, in the order GDB looks:
/// `DIR/.build-id/xx/rest.debug` for each debug directory (the user's, then `/usr/lib/debug`),
/// then the `.gnu_debuglink` name beside the binary, in its `.debug/` subdirectory, under each
/// debug directory by the binary's own directory, and directly in each debug directory.
public struct DebugFileLocator: Sendable {
    /// The user's debug directories; `/usr/lib/debug` is always searched after them.
    public var debugDirectories: [String]

    public init(debugDirectories: [String]) { self.debugDirectories = debugDirectories }

    /// Where the ELF file itself with this build-id may be: `DIR/.build-id/xx/rest` (no
    /// `.debug` suffix) for each debug directory. Existing, readable paths only.
    public func imageCandidates(buildID: [UInt8]) -> [String] {
        guard buildID.count >= 2 else { return [] }
        return buildIDPaths(buildID, suffix: "").filter(FileIO.isReadable)
    }

    /// Separate debug files for the ELF at `binaryPath`, best first. Existing, readable paths
    /// only; the caller checks each one's identity (build-id, or the debuglink CRC).
    public func candidates(binaryPath: String, buildID: [UInt8]?, debugLink: String?) -> [String] {
        var result: [String] = []
        if let buildID, buildID.count >= 2 { result += buildIDPaths(buildID, suffix: ".debug") }
        if let debugLink, !debugLink.isEmpty, !debugLink.contains("/") {
            let directory = binaryPath.lastIndex(of: "/").map { String(binaryPath[..<$0]) } ?? "."
            result.append("\(directory)/\(debugLink)")
            result.append("\(directory)/.debug/\(debugLink)")
            let absoluteDirectory = directory.hasPrefix("/") ? directory : (DirectoryWalk.currentDirectory() + "/" + directory)
            for root in roots {
                result.append("\(root)\(absoluteDirectory)/\(debugLink)")
                result.append("\(root)/\(debugLink)")
            }
        }
        // The binary itself is never its own separate debug file.
        return result.filter { $0 != binaryPath && FileIO.isReadable($0) }
    }

    private var roots: [String] { debugDirectories + ["/usr/lib/debug"] }

    private func buildIDPaths(_ buildID: [UInt8], suffix: String) -> [String] {
        let hex = hexString(buildID)
        let head = String(hex.prefix(2)), tail = String(hex.dropFirst(2))
        return roots.map { "\($0)/.build-id/\(head)/\(tail)\(suffix)" }
    }
}
