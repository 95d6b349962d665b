import CrashReport
import FrameModel
import Symbolication

/// A crash report with its frames symbolicated, its images accounted for and its registers
/// decoded: what every output format (`same`, `json`, `summary`) renders.
public struct SymbolicatedCrash: Sendable {
    public var report: CrashReport
    /// Parallel to `report.binaryImages`.
    public var images: [ImageResolution]
    /// Parallel to `report.threads[i].frames`.
    public var threads: [[SymbolicatedCrashFrame]]
    /// Parallel to `report.lastExceptionBacktrace`.
    public var lastExceptionBacktrace: [SymbolicatedCrashFrame]
    /// What the register-decoding rules said, most telling first.
    public var decodings: [CrashDecoding] = []
    /// Problems met while symbolicating (an image that could not be read, …).
    public var warnings: [String] = []

    /// How many frames point into each image (parallel to `report.binaryImages`).
    public var framesPerImage: [Int] {
        var counts = [Int](repeating: 0, count: report.binaryImages.count)
        for frame in threads.joined() + lastExceptionBacktrace {
            if let index = frame.imageIndex, counts.indices.contains(index) { counts[index] += 1 }
        }
        return counts
    }

    /// One line for each image that left frames unsymbolicated: mismatched ones (a file of
    /// that name with another UUID, never used) and missing ones that frames point into. For
    /// the formats that keep the log's own layout (`same`, `json`), which have no place to say it.
    public var imageWarnings: [String] {
        let frames = framesPerImage
        return images.indices.compactMap { index in
            let image = report.binaryImages[index]
            let identity = image.uuid.map { " \($0)" } ?? ""
            let count = frames[index]
            let unsymbolicated = "\(count) frame\(count == 1 ? "" : "s") left unsymbolicated"
            switch images[index].status {
            case .found: return nil
            case .mismatched(let path, let identifier):
                return "image \(image.name)\(identity) mismatched: \(path) is \(identifier), not used (\(unsymbolicated))"
            case .missing:
                return count > 0 ? "image \(image.name)\(identity) missing (\(unsymbolicated))" : nil
            }
        }
    }

    /// The thread that crashed (or the first), with its frames.
    public var crashedThread: (thread: CrashThread, frames: [SymbolicatedCrashFrame])? {
        let position = report.threads.firstIndex(where: \.crashed) ?? (report.threads.isEmpty ? nil : 0)
        return position.map { (report.threads[$0], threads[$0]) }
    }
}
