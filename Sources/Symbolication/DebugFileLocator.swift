import BinaryReading
import System

/// Where separate debug information for an ELF file may live, in the order GDB looks:
/// `DIR/.build-id/xx/rest.debug` for each debug directory (the user's, then `/usr/lib/debug`),
/// then the `.gnu_debuglink` name beside the binary, in its `.debug/` subdirectory, under each
/// debug directory by the binary's own directory, and directly in each debug directory.
struct DebugFileLocator {
    var debugDirectories: [String]

    func candidates(binaryPath: String, buildID: [UInt8]?, debugLink: String?) -> [String] {
        var result: [String] = []
        let roots = debugDirectories + ["/usr/lib/debug"]
        if let buildID, buildID.count >= 2 {
            let hex = hexString(buildID)
            let head = String(hex.prefix(2)), tail = String(hex.dropFirst(2))
            for root in roots { result.append("\(root)/.build-id/\(head)/\(tail).debug") }
        }
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
        return result.filter { $0 != binaryPath && FileAccess.isReadable($0) }
    }
}
