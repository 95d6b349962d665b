import Diagnostics
import FrameModel
import System

/// `devkit atos`: Apple's atos on Linux. One image opened (a `.dSYM` bundle, a Mach-O or an
/// ELF file), each address answered with the line atos prints:
/// `function (in Image) (file.c:12)` with line information, `function (in Image) + 40`
/// with a symbol only, and the address itself when nothing describes it. With `-i`, one line
/// per inlined frame, innermost first.
public struct AtosSession {
    public let arguments: AtosArguments
    public let image: ImageSymbolizer
    /// The name atos shows in `(in NAME)`: the binary's, also when `-o` is its `.dSYM`.
    public let imageName: String

    public init(_ arguments: AtosArguments, options: SymbolicationOptions = SymbolicationOptions()) throws(SymbolicationError) {
        var options = options
        options.architecture = arguments.architecture ?? options.architecture
        options.names = arguments.names
        self.arguments = arguments
        image = try ImageSymbolizer(path: arguments.binary, options: options)
        imageName = Self.imageName(of: arguments.binary)
    }

    /// `App` for `App`, `build/App`, `App.app.dSYM`, `App.framework.dSYM/` and the DWARF file
    /// inside a dSYM (which is named after the binary).
    static func imageName(of path: String) -> String {
        var name = path.split(separator: "/").last.map(String.init) ?? path
        guard name.hasSuffix(".dSYM") else { return name }
        name.removeLast(".dSYM".count)
        for suffix in [".app", ".framework", ".appex"] where name.hasSuffix(suffix) {
            name.removeLast(suffix.count)
        }
        return name
    }

    /// Answers the addresses of the command line, of `-f FILE`, or of standard input (line by
    /// line, each flushed, so atos can sit in a pipe). `diagnostics` receives error lines.
    public func run(diagnostics: (String) -> Void) throws(FileIOError) {
        var output = ByteWriter()
        defer {
            output.flush()
            output.deallocate()
        }
        if let file = arguments.addressFile {
            let bytes = try FileIO.read(file, kind: .crashLog)
            for word in bytes.split(whereSeparator: Self.isSpace) { answer(String(decoding: word, as: UTF8.self), into: &output, diagnostics: diagnostics) }
        }
        for address in arguments.addresses { answer(address, into: &output, diagnostics: diagnostics) }
        if arguments.addressFile == nil, arguments.addresses.isEmpty {
            LineInput.forEachLine({ line, _ in
                for word in line.split(whereSeparator: Self.isSpace) { answer(String(decoding: word, as: UTF8.self), into: &output, diagnostics: diagnostics) }
            }, chunkDone: { output.flush() })
        }
    }

    private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }

    /// The lines for one address (text as typed).
    public func lines(for address: UInt64) -> String {
        let fileAddress: UInt64 = switch arguments.base {
        case .file: address
        case .loadAddress(let load): image.fileAddress(runtimeAddress: address, loadAddress: load)
        case .slide(let slide): address &- slide
        case .offset: image.imageBase &+ address
        }
        let frames = (try? image.frames(at: fileAddress)) ?? []
        guard let innermost = frames.first, frames.contains(where: { $0.function != nil }) else {
            return "0x\(String(address, radix: 16))\n"
        }
        let name = TerminalText.escaped(imageName)
        // Without -i, atos names the function the address is in and the source line of the
        // address itself (an inlined callee's line, when it is inlined).
        let shown = arguments.inlinedFrames ? frames : [SymbolicatedFrame(
            function: frames.last?.function, file: innermost.file, line: innermost.line, column: innermost.column,
            isInlined: false, source: innermost.source, symbolAddress: frames.last?.symbolAddress)]
        var text = ""
        for frame in shown {
            text += "\(TerminalText.escaped(frame.function ?? "0x\(String(address, radix: 16))")) (in \(name))"
            if let file = frame.file, frame.line > 0 {
                let shownFile = arguments.fullPath ? file : (file.split(separator: "/").last.map(String.init) ?? file)
                text += " (\(TerminalText.escaped(shownFile)):\(frame.line))"
            } else if let start = frame.symbolAddress ?? image.symbol(at: fileAddress)?.start {
                text += " + \(fileAddress &- start)"
            }
            text += "\n"
        }
        return text
    }

    private func answer(_ word: String, into output: inout ByteWriter, diagnostics: (String) -> Void) {
        guard let address = HexAddress.parse(word) else {
            output.flush()
            diagnostics("atos: \"\(TerminalText.escaped(word))\" is not a valid address\n")
            return
        }
        output.write(lines(for: address))
        output.flushIfFull()
    }
}
