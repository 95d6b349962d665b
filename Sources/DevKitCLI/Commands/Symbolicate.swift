import ArgumentParser
import CrashReport
import System
import PropertyList
import Symbolication

struct Symbolicate: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "symbolicate",
        abstract: "Turn addresses into functions, files and lines (inlined calls included).",
        discussion: """
            With --binary, the arguments are addresses (hex, 0x optional), or files listing them \
            (read like crash logs, as a backtrace: the first address a PC, the others return \
            addresses looked up one byte back; --format summary|same|json); with none, addresses \
            are read from standard input, one per line, and answered as they arrive, so devkit \
            can sit in a pipe like llvm-symbolizer. Addresses are file (link-time) addresses \
            unless --load-address gives where the image was loaded; then they are runtime addresses.

            The index built for a binary with a build-id is cached in \
            $XDG_CACHE_HOME/devkit/symbols/<build-id> (default ~/.cache) and used again while the \
            binary (and its debug file) are unchanged; --no-cache skips it.

            DWARF is read from the binary or from a separate debug file found by build-id or \
            .gnu_debuglink (beside the binary, in .debug/, under /usr/lib/debug and each --debug-dir). \
            For Mach-O, from BIN.dSYM beside the binary (or in a --debug-dir) with the same UUID; \
            --binary may also name the .dSYM bundle itself.

            Without --binary, the arguments are crash logs: Apple .crash text and .ips JSON, Swift \
            runtime backtraces (Linux), sanitizer reports, ELF core dumps. Each image the log lists \
            is looked for by UUID/build-id under the --search-path directories (recursively: \
            binaries, .dSYM and .app bundles), at the path the log names, and in \
            /usr/lib/debug/.build-id; a file whose UUID differs is reported and never used. \
            --format same prints the log in its own format with symbols filled in (like \
            symbolicatecrash), json the parsed report with symbols, summary (the default) what \
            crashed, why (decoded registers: the selector of an objc_msgSend crash, null \
            dereferences, Swift runtime errors, poison values) and where.

            Examples:
              devkit symbolicate MyApp-2024-01-01.ips --search-path build/
              devkit symbolicate --format same MyApp.crash -s MyApp.app.dSYM -o MyApp-symbolicated.crash
              devkit symbolicate --format json crash.txt
              devkit symbolicate core.1234 --executable ./server
              devkit symbolicate --binary app 0x401136 0x4011a0
              devkit symbolicate --binary libfoo.so --load-address 0x7f3a12000000 0x7f3a12001234
              devkit symbolicate --binary app --uuid 3f2a…  --output-style json < addresses.txt
            """
    )

    @Option(name: .long, help: "The executable or library the addresses belong to.")
    var binary: String?

    @Option(name: .long, help: "The slice of a fat Mach-O file: arm64, arm64e, x86_64, armv7, i386.")
    var arch: String?

    @Option(name: .long, help: "Where the image was loaded (hex): addresses are runtime addresses.")
    var loadAddress: String?

    @Option(name: .long, help: "A directory holding separate debug files (repeatable).")
    var debugDir: [String] = []

    @Option(name: [.customLong("uuid"), .customLong("build-id")], help: "The build-id/UUID the binary must have; a different one is refused.")
    var uuid: String?

    @Flag(name: .long, help: "With --uuid: symbolicate a mismatching binary anyway, marking frames [unverified].")
    var force = false

    @Option(name: .long, help: "llvm (llvm-symbolizer), gnu (addr2line), atos, or json.")
    var outputStyle: FrameOutputStyle = .llvm

    @Flag(name: .long, help: "Show names as stored (mangled).")
    var noDemangle = false

    @Flag(name: .long, help: "Show only the outermost function of an inlined chain.")
    var noInlines = false

    @Flag(name: .long, help: "Print index build time, lookups per second and cache use to standard error.")
    var stats = false

    @Flag(name: .long, help: "Neither read nor write the index cache ($XDG_CACHE_HOME/devkit/symbols).")
    var noCache = false

    @Option(name: .long, help: "For crash logs: summary, same (the log's own format, symbolicated), or json.")
    var format: CrashLogFormat = .summary

    @Option(name: [.customShort("s"), .long], help: "A directory or file to find images in by UUID/build-id (repeatable, recursive).")
    var searchPath: [String] = []

    @Option(name: .long, help: "For a core dump: the program that dumped it (else found from the core's file notes).")
    var executable: String?

    @Option(name: [.customShort("o"), .long], help: "Write to this file (one crash log) or directory (several) instead of standard output.")
    var output: String?

    @Argument(help: "Addresses (with --binary), or crash logs (without).")
    var inputs: [String] = []

    func validate() throws {
        guard binary != nil else {
            guard !inputs.isEmpty else {
                throw ValidationError("give --binary BIN with addresses, or crash logs (.crash, .ips, Swift backtraces, core dumps).")
            }
            return
        }
        if let loadAddress, parseAddress(Substring(loadAddress)) == nil {
            throw ValidationError("--load-address \"\(loadAddress)\" is not a hex address.")
        }
    }

    func run() throws {
        // With --binary, an argument that is a file (not an address) is a list of addresses
        // in that image, read like a crash log (`--format` applies).
        let addressFiles = binary == nil ? [] : inputs.filter { parseAddress(Substring($0)) == nil && DirectoryWalk.type(of: $0) == .file }
        guard let binary, addressFiles.isEmpty else {
            var options = SymbolicationOptions()
            options.demangle = !noDemangle
            options.debugDirectories = debugDir
            options.cacheDirectory = noCache ? nil : Self.cacheDirectory()
            options.architecture = arch
            var run = CrashLogRun(format: format, searchPaths: searchPath, executable: executable, output: output, options: options)
            if let binary {
                run.addressListImage = .init(path: binary, loadAddress: loadAddress.flatMap { parseAddress(Substring($0)) }, identifier: uuid)
            }
            return try run.symbolicate(binary == nil ? inputs : addressFiles)
        }
        var options = SymbolicationOptions()
        options.demangle = !noDemangle
        options.debugDirectories = debugDir
        options.expectedIdentifier = uuid
        options.allowIdentifierMismatch = force
        options.architecture = arch
        options.cacheDirectory = noCache ? nil : Self.cacheDirectory()
        let image: ImageSymbolizer
        do { image = try ImageSymbolizer(path: binary, options: options) } catch {
            throw CommandFailure.input("\(error.path): error: \(error.description.dropFirst(error.path.count + 2))")
        }
        var session = SymbolicateSession(image: image, formatter: FrameFormatter(style: outputStyle, imagePath: binary),
                                         loadAddress: loadAddress.flatMap { parseAddress(Substring($0)) }, outermostOnly: noInlines,
                                         stats: stats)
        if inputs.isEmpty {
            LineInput.forEachLine({ session.answer($0, source: { "<stdin>:\($0)" }, $1) }, chunkDone: { session.output.flush() })
        } else {
            for (index, input) in inputs.enumerated() {
                Array(input.utf8).withUnsafeBufferPointer { session.answer($0, source: { "argument \($0)" }, index + 1) }
            }
        }
        session.output.flush()
        if stats { FileHandleOutput.standardError(session.statisticsText()) }
        if session.badInputs > 0 { throw CommandFailure(message: "", exitCode: 2) }
    }
}

extension Symbolicate {
    /// `$XDG_CACHE_HOME/devkit/symbols`, else `$HOME/.cache/devkit/symbols`; nil without either.
    static func cacheDirectory() -> String? {
        if let xdg = getenv("XDG_CACHE_HOME").map({ String(cString: $0) }), xdg.hasPrefix("/") { return xdg + "/devkit/symbols" }
        if let home = getenv("HOME").map({ String(cString: $0) }), !home.isEmpty { return home + "/.cache/devkit/symbols" }
        return nil
    }
}

/// One symbolicate run: answers addresses, counts bad input and lookup time.
struct SymbolicateSession {
    let image: ImageSymbolizer
    let formatter: FrameFormatter
    let loadAddress: UInt64?
    let outermostOnly: Bool
    /// Time each lookup (for --stats).
    let stats: Bool
    var output = OutputBuffer()
    var badInputs = 0
    var lookups = 0
    var lookupSeconds = 0.0

    /// Answers one line of input: its first word is the address. `source` names the line in errors.
    mutating func answer(_ line: UnsafeBufferPointer<UInt8>, source: (Int) -> String, _ number: Int) {
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0d }
        guard let first = line.firstIndex(where: { !isSpace($0) }) else { return }
        let end = line[first...].firstIndex(where: isSpace) ?? line.endIndex
        let word = UnsafeBufferPointer(rebasing: line[first..<end])
        guard let address = parseAddress(word) else {
            badInputs += 1
            output.flush()
            FileHandleOutput.standardError("\(source(number)): error: \"\(String(decoding: word, as: UTF8.self))\" is not a hex address\n")
            return
        }
        let fileAddress = loadAddress.map { image.fileAddress(runtimeAddress: address, loadAddress: $0) } ?? address
        let started = stats ? monotonicClock() : 0
        var frames = (try? image.frames(at: fileAddress)) ?? []
        if stats { lookupSeconds += monotonicClock() - started }
        lookups += 1
        if outermostOnly, let last = frames.last { frames = [last] }
        formatter.render(address: address, frames: frames, verified: image.isVerified, into: &output.bytes)
        output.flushIfFull()
    }

    func statisticsText() -> String {
        let s = image.statistics
        let rate = lookupSeconds > 0 ? Double(lookups) / lookupSeconds : 0
        return "index: \(format(s.indexSeconds)) s (\(s.cacheNote); \(s.lineRows) line rows, "
            + "\(s.subroutines) functions and inlined calls, \(s.symbols) symbols)\n"
            + "lookups: \(lookups) in \(format(lookupSeconds)) s (\(Int(rate)) per second)\n"
    }

    private func format(_ seconds: Double) -> String {
        let millis = Int((seconds * 1000).rounded())
        return "\(millis / 1000).\(String(repeating: "0", count: 3 - String(millis % 1000).count))\(millis % 1000)"
    }
}

extension FrameOutputStyle: ExpressibleByArgument {}

#if canImport(Glibc)
import Glibc
#endif

private func monotonicClock() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
}
