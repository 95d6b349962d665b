import ArgumentParser
import CrashSymbolication
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
            An ELF image whose DWARF is not found here is fetched by build-id from the debuginfod \
            servers of --debuginfod URL or $DEBUGINFOD_URLS (space-separated), through \
            libdebuginfod and its cache ($DEBUGINFOD_CACHE_PATH); a server that does not answer \
            within $DEBUGINFOD_TIMEOUT (10 s unless set) or 30 s in all leaves symbol-table names \
            and a warning. --offline never asks.
            For Mach-O, from BIN.dSYM beside the binary (or in a --debug-dir) with the same UUID; \
            --binary may also name the .dSYM bundle itself.

            Without --binary, the arguments are crash logs: Apple .crash text and .ips JSON, \
            MetricKit diagnostics (MXDiagnosticPayload JSON), KSCrash JSON reports, Swift runtime \
            backtraces (Linux), sanitizer reports, ELF core dumps. Each image the log lists \
            is looked for by UUID/build-id under the --search-path directories (recursively: \
            binaries, .dSYM and .app bundles), at the path the log names, and in \
            /usr/lib/debug/.build-id; a file whose UUID differs is reported and never used. \
            --format same prints the log in its own format with symbols filled in (like \
            symbolicatecrash), json the parsed report with symbols, summary (the default) what \
            crashed, why (decoded registers: the selector of an objc_msgSend crash, null \
            dereferences, Swift runtime errors, poison values) and where.

            --group LOG...|DIR groups crash logs of any mix of formats (directories walked \
            recursively; files that are no crash log skipped and counted) by signature: the \
            exception and the crashed thread's first three frames in the app's own images, \
            symbolicated (image + offset when no symbols are found). Each group has its count, \
            first and last date, app and OS versions, and one example log (the latest) with its \
            crashed thread; most crashes first. --format text (default), json, or html (one \
            self-contained page). A log that cannot be read is one warning line; the rest are \
            grouped, and the exit status is 2.

            Examples:
              devkit symbolicate MyApp-2024-01-01.ips --search-path build/
              devkit symbolicate --format same MyApp.crash -s MyApp.app.dSYM -o MyApp-symbolicated.crash
              devkit symbolicate --format json crash.txt
              devkit symbolicate core.1234 --executable ./server
              devkit symbolicate --binary app 0x401136 0x4011a0
              devkit symbolicate --names full MyApp.crash -s build/
              devkit symbolicate --group crashes/ -s build/App.xcarchive --format html -o crashes.html
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

    @Option(name: .long, help: "Swift names: short (Xcode's, as swift-demangle --simplified) or full (swift-demangle's). Default: short for crash logs, full with --binary.")
    var names: NameForm?

    @Flag(name: .long, help: "Show only the outermost function of an inlined chain.")
    var noInlines = false

    @Flag(name: .long, help: "Print index build time, lookups per second and cache use to standard error.")
    var stats = false

    @Flag(name: .long, help: "Neither read nor write the index cache ($XDG_CACHE_HOME/devkit/symbols).")
    var noCache = false

    @Option(name: .long, help: "For crash logs: summary (default), same (the log's own format, symbolicated), or json; with --group: text (default), json, or html.")
    var format: SymbolicateFormat?

    @Flag(name: .long, help: "Group crash logs (files, and directories walked recursively) by signature: exception and the crashed thread's first app frames.")
    var group = false

    @Option(name: [.customShort("s"), .long], help: "A directory or file to find images in by UUID/build-id (repeatable, recursive).")
    var searchPath: [String] = []

    @Option(name: .long, help: "For a core dump: the program that dumped it (else found from the core's file notes).")
    var executable: String?

    @Option(name: [.customShort("o"), .long], help: "Write to this file (one crash log) or directory (several) instead of standard output.")
    var output: String?

    @Option(name: .long, help: ArgumentHelp("Fetch missing debug files by build-id from these debuginfod servers (space-separated URLs) instead of $DEBUGINFOD_URLS.", valueName: "url"))
    var debuginfod: String?

    @Flag(name: .long, help: "Never ask a debuginfod server, even with $DEBUGINFOD_URLS set.")
    var offline = false

    @Argument(help: "Addresses (with --binary), or crash logs (without).")
    var inputs: [String] = []

    var invocation: SymbolicateInvocation {
        SymbolicateInvocation(binary: binary, arch: arch, loadAddress: loadAddress, debugDir: debugDir, uuid: uuid,
                              force: force, outputStyle: outputStyle, noDemangle: noDemangle, names: names, noInlines: noInlines,
                              stats: stats, noCache: noCache, format: format, group: group, searchPath: searchPath,
                              executable: executable, output: output, debuginfod: debuginfod, offline: offline,
                              inputs: inputs)
    }

    func validate() throws { try invocation.validate() }

    func run() throws { try invocation.run() }
}

extension FrameOutputStyle: ExpressibleByArgument {}

extension NameForm: ExpressibleByArgument {}
