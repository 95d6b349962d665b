import CrashReport
import Diagnostics
import Symbolication

/// Symbolicates crash reports: finds each image (`ImageResolver`), looks every frame up in
/// the image's symbols (`SymbolicationSession`, each image opened once however many reports
/// use it), and runs the register-decoding rules. Reuse one for many reports, from one
/// thread at a time (its caches of image resolutions and binary sections are not locked).
public final class CrashSymbolicator {
    public let resolver: ImageResolver
    public let session: SymbolicationSession
    public let rules: [any CrashDecodingRule]
    private var resolutions: [ResolutionKey: ImageResolution] = [:]
    private var sections: [String: BinarySections?] = [:]
    /// Remember each frame's lookup (off by default: a log's frames rarely repeat, many logs'
    /// of one crash do). Unbounded: one entry per distinct frame seen.
    public var memoizesLookups = false
    private var lookups: [LookupKey: CrashFrameSymbols?] = [:]
    /// The image the previous frame was in: most frames follow one in the same image, and
    /// asking the session hashes its path, identifier and architecture every time (a
    /// twentieth of a warm core dump's symbolication).
    private var lastImage: (path: String, architecture: String?, symbolizer: ImageSymbolizer)?

    private struct LookupKey: Hashable {
        var path: String
        var architecture: String?
        var address: UInt64
        var back: UInt64
        var verified: Bool
    }

    private struct ResolutionKey: Hashable {
        var name: String
        var identifier: String?
        var path: String?
        var architecture: String?
    }

    public init(resolver: ImageResolver, options: SymbolicationOptions = SymbolicationOptions(),
                rules: [any CrashDecodingRule] = CrashDecodingRules.all) {
        self.resolver = resolver
        self.session = SymbolicationSession(options: options)
        self.rules = rules
    }

    public func symbolicate(_ report: CrashReport) -> SymbolicatedCrash {
        var warnings: [String] = []
        let images = resolveImages(of: report, warnings: &warnings)
        let ranges = BinaryImageMap(report.binaryImages)
        var reported = Set<String>()
        func resolve(_ frame: CrashFrame) -> SymbolicatedCrashFrame {
            symbolicate(frame, of: report, images: images, ranges: ranges, warnings: &warnings, reported: &reported)
        }
        let threads = report.threads.map { $0.frames.map(resolve) }
        let lastException = report.lastExceptionBacktrace.map(resolve)
        var crash = SymbolicatedCrash(report: report, images: images, threads: threads, lastExceptionBacktrace: lastException, warnings: warnings)
        let memory = ReportMemory(report: report, images: images, ranges: ranges, symbolicator: self)
        let context = DecodingContext(crash: crash, memory: memory)
        // A register another rule already explained (the selector in x1) is not listed again
        // as a plain pointer.
        var decodings: [CrashDecoding] = []
        for decoding in rules.flatMap({ $0.decode(context) }) {
            if decoding.rule == RegisterPointerRule.description.id, let register = decoding.register,
               decodings.contains(where: { $0.register == register && $0.rule != decoding.rule }) { continue }
            decodings.append(decoding)
        }
        crash.decodings = decodings
        return crash
    }

    /// Where each of `report`'s images is (parallel to `binaryImages`), resolved once per
    /// image across reports; a debuginfod server's failure is added to `warnings`.
    public func resolveImages(of report: CrashReport, warnings: inout [String]) -> [ImageResolution] {
        report.binaryImages.indices.map { resolveImage(at: $0, of: report, warnings: &warnings) }
    }

    /// Where `report.binaryImages[index]` is, resolved once per image across reports (for a
    /// caller that needs only the images some frames are in: a log lists hundreds).
    public func resolveImage(at index: Int, of report: CrashReport, warnings: inout [String]) -> ImageResolution {
        let image = report.binaryImages[index]
        let key = ResolutionKey(name: image.name, identifier: image.uuid, path: image.path, architecture: image.arch ?? report.architecture)
        if let known = resolutions[key] { return known }
        // Only ELF reports carry GNU build-ids a debuginfod server may know.
        let fetchesELF = report.format == .swiftBacktrace || report.format == .coreDump
        let resolution = resolver.resolve(image, reportArchitecture: report.architecture, fetchesELF: fetchesELF)
        resolutions[key] = resolution
        if let problem = resolution.fetchProblem { warnings.append("\(image.name): \(problem)") }
        return resolution
    }

    /// One frame of `report`, tied to its image (`ranges`, `images` from `resolveImages`) and
    /// looked up in the image's symbols. An image that cannot be read is added to `warnings`
    /// once per path in `reported`.
    public func symbolicate(_ frame: CrashFrame, of report: CrashReport, images: [ImageResolution], ranges: BinaryImageMap,
                            warnings: inout [String], reported: inout Set<String>) -> SymbolicatedCrashFrame {
        var address = frame.address
        guard let imageIndex = ranges.image(of: frame) ?? frame.imageName.flatMap(ranges.image(named:)),
              images.indices.contains(imageIndex) else { return SymbolicatedCrashFrame(address: address) }
        let image = report.binaryImages[imageIndex]
        if address == nil, let base = image.loadAddress, let offset = frame.imageOffset {
            let (sum, overflow) = base.addingReportingOverflow(offset)
            address = overflow ? nil : sum
        }
        var resolved = SymbolicatedCrashFrame(imageIndex: imageIndex, address: address)
        let resolution = images[imageIndex]
        guard resolution.status == .found, let path = resolution.symbolsPath else { return resolved }
        let symbolizer: ImageSymbolizer
        if let lastImage, lastImage.path == path, lastImage.architecture == resolution.architecture {
            symbolizer = lastImage.symbolizer
        } else {
            do {
                symbolizer = try session.image(at: path, architecture: resolution.architecture)
            } catch {
                if reported.insert(path).inserted { warnings.append("\(error)") }
                return resolved
            }
            lastImage = (path, resolution.architecture, symbolizer)
        }
        // A debug file a debuginfod server failed to give: said once per image. One it does
        // not have is not: a log's system libraries without DWARF would each say so, every run.
        let failures = symbolizer.warnings.isEmpty ? [] : symbolizer.warnings.filter { $0.kind != .fileNotFound }
        if !failures.isEmpty, reported.insert(path).inserted {
            warnings += failures.map { "\($0.file ?? path): \($0.message)" }
        }
        // The file address of the instruction: a return address is looked up one byte
        // back, inside the call, so the line is the call's and not the next statement's.
        let back: UInt64 = frame.isReturnAddress ? 1 : 0
        let fileAddress: UInt64
        if let address, let base = image.loadAddress {
            fileAddress = symbolizer.fileAddress(runtimeAddress: address, loadAddress: base)
        } else if let offset = frame.imageOffset {
            fileAddress = symbolizer.imageBase &+ offset
        } else {
            return resolved
        }
        // The same frame of many logs of one crash (`symbolicate --group`) is looked up once.
        let lookupKey = LookupKey(path: path, architecture: resolution.architecture, address: fileAddress, back: back, verified: resolution.verified)
        if memoizesLookups, let known = lookups[lookupKey] {
            resolved.symbols = known
            return resolved
        }
        defer { if memoizesLookups { lookups[lookupKey] = .some(resolved.symbols) } }
        guard let frames = try? symbolizer.frames(at: fileAddress &- back) else { return resolved }
        let symbol = symbolizer.symbol(at: fileAddress &- back)
        if frames.first?.source == .unknown, symbol == nil { return resolved }
        resolved.symbols = CrashFrameSymbols(frames: frames, symbol: symbol?.name,
                                             offset: symbol.map { fileAddress &- $0.start }, verified: resolution.verified)
        return resolved
    }

    /// The sections of a found image's binary, opened once.
    func binarySections(path: String, architecture: String?) -> BinarySections? {
        let key = "\(architecture ?? "")\u{0}\(path)"
        if let known = sections[key] { return known }
        let opened = BinarySections(path: path, architecture: architecture)
        sections[key] = opened
        return opened
    }
}
