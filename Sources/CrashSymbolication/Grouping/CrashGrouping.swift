import CrashReport

/// The groups of a run's crash logs, filled one report at a time (`add`), so a run keeps one
/// report per group in memory, not every log.
public struct CrashGrouping {
    /// How many of the crashed thread's app frames make a signature: enough to tell two
    /// crashes in one helper apart by their callers, few enough that a change deep in the
    /// stack (another caller of the same failing code) stays the same crash.
    public static let signatureFrames = 3

    /// Reports added.
    public private(set) var logs = 0
    private var positions: [CrashSignature: Int] = [:]
    private var list: [CrashGroup] = []

    public init() {}

    /// Adds `report` (read from `path`) to its group; returns what symbolication had to say
    /// (an image that could not be read), one line each.
    public mutating func add(_ report: CrashReport, path: String, symbolicator: CrashSymbolicator) -> [String] {
        var warnings: [String] = []
        let signature = Self.signature(of: report, symbolicator: symbolicator, warnings: &warnings)
        logs += 1
        let position: Int
        if let known = positions[signature] {
            position = known
        } else {
            position = list.count
            positions[signature] = position
            list.append(CrashGroup(signature: signature, example: path))
        }
        Self.record(report, path: path, into: &list[position])
        return warnings
    }

    /// Counts `report` in `group`: times, versions, format, and the example.
    private static func record(_ report: CrashReport, path: String, into group: inout CrashGroup) {
        let time = report.timestamp.flatMap(CrashTimestamp.init)
        group.count += 1
        if let time {
            group.first = group.first.map { min($0, time) } ?? time
            group.last = group.last.map { max($0, time) } ?? time
        } else {
            group.undated += 1
        }
        if let version = report.appVersion { group.appVersions[version, default: 0] += 1 }
        if let version = report.osVersion { group.osVersions[version, default: 0] += 1 }
        group.formats[report.format.rawValue, default: 0] += 1
        // The latest crash is the example: the one most like what users run now.
        let later = time.map { time in group.exampleTime.map { time > $0 } ?? true } ?? false
        if group.exampleReport == nil || later {
            group.example = path
            group.exampleTime = time
            var kept = report
            // Only the crashed thread is shown; the other threads need not stay in memory.
            kept.threads = crashedThread(of: report).map { [$0] } ?? []
            kept.lastExceptionBacktrace = []
            group.exampleReport = kept
        }
    }

    /// The groups, most crashes first (then the latest first, then by signature), each with
    /// its example's crashed thread symbolicated.
    public func groups(symbolicator: CrashSymbolicator) -> [CrashGroup] {
        var result = list
        for index in result.indices {
            guard let report = result[index].exampleReport else { continue }
            result[index].exampleFrames = Self.frames(of: report, symbolicator: symbolicator)
            result[index].exampleReport = nil
        }
        return result.sorted { left, right in
            if left.count != right.count { return left.count > right.count }
            if left.last != right.last { return (left.last?.secondsSince1970 ?? .min) > (right.last?.secondsSince1970 ?? .min) }
            return left.signature.description < right.signature.description
        }
    }

    /// The thread that crashed, else the first (as the summary chooses).
    static func crashedThread(of report: CrashReport) -> CrashThread? {
        report.threads.first(where: \.crashed) ?? report.threads.first
    }

    /// `EXC_BAD_ACCESS (SIGSEGV)`, with a documented termination code when the report has one
    /// (`EXC_CRASH (SIGKILL) 0x8badf00d`: a watchdog, not a lock held while suspended); a
    /// signal alone; the reason; what a MetricKit report is.
    static func exception(of report: CrashReport) -> String {
        let exception = report.exception
        let code = TerminationExplanation.knownCodes(of: report).first.map { " 0x" + String($0, radix: 16) } ?? ""
        if let type = exception?.type { return (exception?.signal.map { "\(type) (\($0))" } ?? type) + code }
        if let signal = exception?.signal { return signal }
        if let reason = exception?.reason { return String(reason.prefix(160)) }
        // `MetricKit hang diagnostic (hang duration 3.2 sec)`: the measure differs per hang.
        if let kind = report.kind {
            var text = kind.prefix { $0 != "(" }
            while text.last == " " { text.removeLast() }
            return String(text)
        }
        return "unknown exception"
    }

    /// The exception and the crashed thread's first app frames: symbolicated when the image's
    /// symbols are found, else the name the log wrote, else image + offset. Frames in system
    /// images are not looked up unless no app frame is found (then the first frames, whatever
    /// their image, make the signature).
    static func signature(of report: CrashReport, symbolicator: CrashSymbolicator, warnings: inout [String]) -> CrashSignature {
        // Only the images the crashed thread's frames are in are resolved: a real log lists
        // hundreds, and looking each up cost more than the rest of grouping it.
        var images = [ImageResolution](repeating: .missing, count: report.binaryImages.count)
        var isResolved = [Bool](repeating: false, count: report.binaryImages.count)
        let ranges = BinaryImageMap(report.binaryImages)
        var reported = Set<String>()
        var appFrames: [CrashSignatureFrame] = []
        var firstFrames: [CrashSignatureFrame] = []
        for frame in crashedThread(of: report)?.frames ?? [] {
            if appFrames.count == signatureFrames { break }
            let imageIndex = (ranges.image(of: frame) ?? frame.imageName.flatMap(ranges.image(named:))).flatMap { images.indices.contains($0) ? $0 : nil }
            if let imageIndex, !isResolved[imageIndex] {
                images[imageIndex] = symbolicator.resolveImage(at: imageIndex, of: report, warnings: &warnings)
                isResolved[imageIndex] = true
            }
            let isApp = imageIndex.map { AppImageRule.isApp(report.binaryImages[$0], symbolsPath: images[$0].symbolsPath) } ?? false
            if !isApp, firstFrames.count == signatureFrames { continue }
            let resolved = symbolicator.symbolicate(frame, of: report, images: images, ranges: ranges, warnings: &warnings, reported: &reported)
            let image = imageIndex.map { report.binaryImages[$0] }
            var offset = frame.imageOffset
            if offset == nil, let address = resolved.address ?? frame.address, let base = image?.loadAddress, address >= base { offset = address - base }
            let function = resolved.symbols?.function ?? loggedSymbol(frame, image: image?.name)
            let entry = CrashSignatureFrame(image: image?.name ?? frame.imageName ?? "???", function: function, offset: function == nil ? offset : nil)
            if isApp { appFrames.append(entry) }
            if firstFrames.count < signatureFrames { firstFrames.append(entry) }
        }
        return CrashSignature(exception: exception(of: report), frames: appFrames.isEmpty ? firstFrames : appFrames)
    }

    /// The function a log already names for the frame; not the placeholders unsymbolicated
    /// logs write in its place (`0x104544000`, the image's name).
    private static func loggedSymbol(_ frame: CrashFrame, image: String?) -> String? {
        guard let symbol = frame.symbol, !symbol.isEmpty, !symbol.hasPrefix("0x"), symbol != image, symbol != frame.imageName else { return nil }
        return symbol
    }

    /// The example's crashed thread, every frame symbolicated, inlined calls as their own lines.
    static func frames(of report: CrashReport, symbolicator: CrashSymbolicator) -> [CrashGroupFrame] {
        var warnings: [String] = []
        let images = symbolicator.resolveImages(of: report, warnings: &warnings)
        let ranges = BinaryImageMap(report.binaryImages)
        var reported = Set<String>()
        var lines: [CrashGroupFrame] = []
        for frame in crashedThread(of: report)?.frames ?? [] {
            let resolved = symbolicator.symbolicate(frame, of: report, images: images, ranges: ranges, warnings: &warnings, reported: &reported)
            let image = resolved.imageIndex.map { report.binaryImages[$0].name } ?? frame.imageName ?? "???"
            let address = resolved.address ?? frame.address
            guard let symbols = resolved.symbols else {
                var text = frame.symbol ?? frame.imageOffset.map { "\(image) + \($0)" } ?? "???"
                if let offset = frame.symbolOffset, frame.symbol != nil { text += " + \(offset)" }
                lines.append(CrashGroupFrame(index: frame.index, image: image, address: address, function: text, offset: nil,
                                             location: frame.sourceLocation, inlined: false, symbolicated: false))
                continue
            }
            for entry in FrameText.entries(symbols) {
                lines.append(CrashGroupFrame(index: frame.index, image: image, address: address, function: entry.function, offset: entry.offset,
                                             location: FrameText.location(entry.frame), inlined: entry.isInlined, symbolicated: true))
            }
        }
        return lines
    }
}
