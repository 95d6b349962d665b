import CrashReport
import System
import Symbolication

/// Where devkit found an image of a crash report, or why it did not use one.
public struct ImageResolution: Sendable, Equatable {
    public enum Status: Sendable, Equatable {
        /// Files with the report's UUID/build-id were found (or, for a log that gives no
        /// identifier, a file at the image's path or of its name).
        case found
        /// A file of that name was found but its identifier differs: never used.
        case mismatched(path: String, identifier: String)
        /// Nothing was found.
        case missing
    }
    public var status: Status
    /// The file frames are symbolicated from: a dSYM or `.debug` file when there is one,
    /// else the binary.
    public var symbolsPath: String?
    /// The binary itself, whose sections hold the strings registers may point at (a dSYM
    /// has no `__objc_methname` or `__cstring`).
    public var binaryPath: String?
    /// The Mach-O slice to use.
    public var architecture: String?
    /// False when the log gave no identifier to check the file against.
    public var verified: Bool
    /// Why a debuginfod server did not give the image (refused, timed out): one line for
    /// the report's warnings. Nil when nothing was asked or the server said it has no such file.
    public var fetchProblem: String?

    public static let missing = ImageResolution(status: .missing, symbolsPath: nil, binaryPath: nil, architecture: nil, verified: false)

    public init(status: Status, symbolsPath: String?, binaryPath: String?, architecture: String?, verified: Bool, fetchProblem: String? = nil) {
        self.status = status
        self.symbolsPath = symbolsPath
        self.binaryPath = binaryPath
        self.architecture = architecture
        self.verified = verified
        self.fetchProblem = fetchProblem
    }
}
