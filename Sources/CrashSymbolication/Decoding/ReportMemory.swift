import CrashReport
import Symbolication

/// `ReportMemory`: addresses described from the found images' files.
///
/// `@unchecked Sendable`: it holds the symbolicator, whose caches are plain dictionaries; a
/// `ReportMemory` lives only inside one `CrashSymbolicator.symbolicate` call on one thread
/// (the rules run there), so nothing shares it.
struct ReportMemory: CrashMemory, @unchecked Sendable {
    let report: CrashReport
    let images: [ImageResolution]
    let ranges: BinaryImageMap
    let symbolicator: CrashSymbolicator

    func describe(_ address: UInt64) -> AddressInfo? {
        guard let index = ranges.image(containing: address) else { return nil }
        let image = report.binaryImages[index]
        var info = AddressInfo(imageName: image.name, binaryAvailable: false)
        let resolution = images[index]
        guard resolution.status == .found, let base = image.loadAddress else { return info }
        var fileAddress: UInt64?
        if let path = resolution.symbolsPath, let symbolizer = try? symbolicator.session.image(at: path, architecture: resolution.architecture) {
            let converted = symbolizer.fileAddress(runtimeAddress: address, loadAddress: base)
            fileAddress = converted
            if let symbol = symbolizer.symbol(at: converted) {
                info.symbol = symbol.name
                info.offset = converted &- symbol.start
            }
            if let frame = try? symbolizer.frames(at: converted).first, let file = frame.file, frame.line > 0 {
                info.location = "\(file.split(separator: "/").last.map(String.init) ?? file):\(frame.line)"
            }
        }
        // The binary's sections are addressed by file address, which takes the symbolizer's
        // image base; without it (the symbols could not be read) nothing more is known.
        if let converted = fileAddress, let path = resolution.binaryPath,
           let sections = symbolicator.binarySections(path: path, architecture: resolution.architecture) {
            info.binaryAvailable = true
            if let section = sections.section(containing: converted) {
                info.section = section.name
                info.kind = section.kind
                if section.kind == .cString || section.kind == .selectorName || section.kind == .readOnlyData {
                    info.string = sections.cString(at: converted)
                }
            }
        }
        return info
    }
}
