import System

/// `devkit symbolicate --binary BIN ADDRESS...`: one image opened (index built or read from
/// the cache), then addresses answered as they come, from the arguments or line by line from
/// standard input, so devkit can sit in a pipe like `llvm-symbolizer`. Answers are written to
/// standard output; a line that is not an address is reported and counted, and the rest are
/// still answered.
///
/// ```swift
/// var session = try AddressLookupSession(binary: "app", options: options, style: .llvm)
/// session.answer(["0x401136"], diagnostics: { print($0, terminator: "") })
/// ```
public struct AddressLookupSession {
    /// The image the addresses belong to.
    public let image: ImageSymbolizer
    /// How answers are written (`--output-style`).
    public let formatter: FrameFormatter
    /// Where the image was loaded (`--load-address`): the addresses are runtime addresses.
    /// Nil: they are file (link-time) addresses.
    public var loadAddress: UInt64?
    /// Answer with the outermost function of an inlined chain only (`--no-inlines`).
    public var outermostOnly: Bool
    /// Time each lookup, for `statisticsText` (`--stats`).
    public var measuresLookups: Bool
    /// Lines or arguments that were not addresses.
    public private(set) var badInputs = 0
    /// Addresses looked up so far.
    public private(set) var lookups = 0
    /// Time spent in those lookups, when `measuresLookups`.
    public private(set) var lookupSeconds = 0.0
    /// One answer in the atos and JSON styles, rendered as `String`s and then written out.
    private var rendered: [UInt8] = []
    /// For the line styles (`formatter.writesRecords`): names and paths as bytes, of the
    /// index the records come from (made again if a damaged cache block made the image
    /// rebuild its index).
    private var text: FrameText
    /// One address's frames, the array reused from address to address.
    private var records: [FrameRecord] = []

    /// Opens the image at `binary` (a `.dSYM` bundle stands for its DWARF file).
    public init(binary: String, options: SymbolicationOptions, style: FrameOutputStyle, loadAddress: UInt64? = nil,
                outermostOnly: Bool = false, measuresLookups: Bool = false) throws(SymbolicationError) {
        image = try ImageSymbolizer(path: binary, options: options)
        formatter = FrameFormatter(style: style, imagePath: binary)
        text = image.makeFrameText()
        self.loadAddress = loadAddress
        self.outermostOnly = outermostOnly
        self.measuresLookups = measuresLookups
    }

    /// Answers each argument (named `argument N` in errors) or, when there are none, each
    /// line of standard input as it arrives (`<stdin>:N`), flushing after every read so a
    /// program at the other end of a pipe gets its answer before sending the next address.
    /// `diagnostics` receives each error line (with its newline).
    public mutating func answer(_ arguments: [String], diagnostics: (String) -> Void) {
        // One buffer for every answer of the run, written out in 64 KiB pieces.
        var output = ByteWriter()
        defer { output.deallocate() }
        if arguments.isEmpty {
            LineInput.forEachLine({ answer($0, source: { "<stdin>:\($0)" }, $1, to: &output, diagnostics: diagnostics) },
                                  chunkDone: { output.flush() })
        } else {
            for (index, argument) in arguments.enumerated() {
                Array(argument.utf8).withUnsafeBufferPointer {
                    answer($0, source: { "argument \($0)" }, index + 1, to: &output, diagnostics: diagnostics)
                }
            }
        }
        output.flush()
    }

    /// Answers one line of input: its first word is the address. `source` names the line in errors.
    private mutating func answer(_ line: UnsafeBufferPointer<UInt8>, source: (Int) -> String, _ number: Int,
                                 to output: inout ByteWriter, diagnostics: (String) -> Void) {
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0d }
        guard let first = line.firstIndex(where: { !isSpace($0) }) else { return }
        let end = line[first...].firstIndex(where: isSpace) ?? line.endIndex
        let word = UnsafeBufferPointer(rebasing: line[first..<end])
        guard let address = HexAddress.parse(word) else {
            badInputs += 1
            // Answers so far go out first, so the error sits where the bad line was.
            output.flush()
            diagnostics("\(source(number)): error: \"\(String(decoding: word, as: UTF8.self))\" is not a hex address\n")
            return
        }
        let fileAddress = loadAddress.map { image.fileAddress(runtimeAddress: address, loadAddress: $0) } ?? address
        let started = measuresLookups ? MonotonicClock.seconds() : 0
        lookups += 1
        if formatter.writesRecords {
            // Each frame goes straight into the output; --stats times lookup and output together.
            do {
                let index = try image.frameRecords(at: fileAddress, outermostOnly: outermostOnly, into: &records)
                // The records of an index rebuilt after a damaged cache block name its strings.
                if text.source !== index { text = image.makeFrameText(for: index) }
                let verified = image.isVerified, style = formatter.style
                for record in records { FrameFormatter.write(record, style: style, text: text, verified: verified, to: &output) }
            } catch {
                output.flush()
                diagnostics("\(error)\n")
            }
            formatter.endAddress(to: &output)
            if measuresLookups { lookupSeconds += MonotonicClock.seconds() - started }
        } else {
            var frames = (try? image.frames(at: fileAddress)) ?? []
            if measuresLookups { lookupSeconds += MonotonicClock.seconds() - started }
            if outermostOnly, let last = frames.last { frames = [last] }
            rendered.removeAll(keepingCapacity: true)
            formatter.render(address: address, frames: frames, verified: image.isVerified, into: &rendered)
            rendered.withUnsafeBufferPointer { output.write($0) }
        }
        output.flushIfFull()
    }

    /// How the index was obtained and how fast lookups were (two lines, for `--stats`).
    public var statisticsText: String {
        let s = image.statistics
        let rate = lookupSeconds > 0 ? Double(lookups) / lookupSeconds : 0
        return "index: \(Self.format(s.indexSeconds)) s (\(s.cacheNote); \(s.lineRows) line rows, "
            + "\(s.subroutines) functions and inlined calls, \(s.symbols) symbols)\n"
            + "lookups: \(lookups) in \(Self.format(lookupSeconds)) s (\(Int(rate)) per second)\n"
    }

    /// Seconds with three decimals (`0.042`).
    private static func format(_ seconds: Double) -> String {
        let millis = Int((seconds * 1000).rounded())
        return "\(millis / 1000).\(String(repeating: "0", count: 3 - String(millis % 1000).count))\(millis % 1000)"
    }
}
