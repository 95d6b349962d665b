import ArgumentParser
@testable import DevKitCLI
import DevKitTestSupport
import Testing

/// The direct readers of `DirectlyParsed` invocations against ArgumentParser: on every line a
/// reader accepts, its invocation equals the one ArgumentParser's command builds (defaults
/// included); the plain lines hooks and scripts use are read directly; help, short options,
/// misspelt options and bad values are left to ArgumentParser.
@Suite struct DirectParseTests {
    /// The invocation ArgumentParser's parse of `arguments` (argv without devkit) builds.
    static func parsedInvocation(_ arguments: [String]) -> (any DirectlyParsed)? {
        switch try? DevKit.parseAsRoot(arguments) {
        case let command as Plist.PlistGet: command.invocation
        case let command as Plist.PlistLint: command.invocation
        case let command as Plist.PlistConvert: command.invocation
        case let command as Plist.PlistTextconv: command.invocation
        case let command as Plist.PlistFmt: command.invocation
        case let command as Plist.PlistPrint: command.invocation
        case let command as Plist.PlistSet: command.invocation
        case let command as Plist.PlistDelete: command.invocation
        case let command as Lint: command.invocation
        case let command as Symbolicate: command.invocation
        case let command as Heap.HeapRecord: command.invocation
        case let command as Heapdiff: command.invocation
        case let command as Plist.PlistInsert: command.invocation
        case let command as Plist.PlistRename: command.invocation
        case let command as Plist.PlistMerge: command.invocation
        case let command as Plist.PlistDiff: command.invocation
        default: nil
        }
    }

    static func same<Invocation: DirectlyParsed>(_ direct: Invocation, _ parsed: (any DirectlyParsed)?) -> Bool {
        (parsed as? Invocation) == direct
    }

    /// Whether the direct reader reads `arguments`, and then whether ArgumentParser agrees; the
    /// two commands are described only when they disagree (a reflected description of each
    /// line was most of the shuffled lines' test time).
    static func compare(_ arguments: [String]) -> (read: Bool, agrees: Bool, detail: String) {
        guard let direct = DirectParse.invocation(arguments) else { return (false, true, "") }
        let parsed = parsedInvocation(arguments)
        let agrees = same(direct, parsed)
        return (true, agrees, agrees ? "" : "direct \(direct)\nparser \(parsed.map { "\($0)" } ?? "refuses")")
    }

    static let readDirectly: [[String]] = [
        ["plist", "get", "Samples/Info.plist", "CFBundleIdentifier"],
        ["plist", "get", "Samples/Info.plist", "CFBundleIdentifier", "--raw"],
        ["plist", "get", "--format", "json", "Samples/Info.plist", ":CFBundleURLTypes:0"],
        ["plist", "get", "--format=xml1", "-", "a.b", "--input-format", "openstep"],
        ["plist", "get", "--", "--odd-name.plist", "key"],
        ["plist", "lint", "Samples/Info.plist"],
        ["plist", "lint", "--format", "json", "a.plist", "b.plist", "-"],
        ["plist", "lint", "a.plist", "--input-format=binary"],
        ["plist", "convert", "Samples/Info.plist", "--to", "json"],
        ["plist", "convert", "a.plist", "--to", "binary1", "-o", "a.bplist"],
        ["plist", "convert", "--to=xml", "-o", "-", "-"],
        ["plist", "convert", "a.bplist", "--to", "json", "--lossy", "--output", "a.json", "--input-format", "binary"],
        ["plist", "convert", "a.plist", "--to", "xml1", "--in-place", "--backup", "--force"],
        ["plist", "convert", "-o", "out.plist", "--to", "openstep", "--", "-odd.plist"],
        ["plist", "textconv", "Samples/Info.plist"],
        ["plist", "textconv", "-", "--input-format", "binary"],
        ["plist", "fmt", "Samples/Info.plist"],
        ["plist", "fmt", "--check", "a.plist", "b.plist", "c.strings"],
        ["plist", "fmt", "--check", "--sort-keys", "--indent", "4", "--drop-comments", "a.plist", "-"],
        ["plist", "fmt", "--indent=tabs", "--input-format", "xml1", "--backup", "--force", "a.plist"],
        ["plist", "print", "Samples/Info.plist"],
        ["plist", "print", "--keypaths", "a.plist", "b.bplist"],
        ["plist", "print", "--color", "never", "--input-format=openstep", "-"],
        ["plist", "set", "Info.plist", "CFBundleShortVersionString", "2.1"],
        ["plist", "set", "Info.plist", "LSRequiresIPhoneOS", "true", "--type", "bool"],
        ["plist", "set", "--create-parents", "--type=integer", "Settings.plist", "Sync.Server.Port", "8443", "--backup", "--force"],
        ["plist", "set", "-", ":CFBundleURLTypes:0:CFBundleURLName", "-"],
        ["plist", "set", "a.plist", "NSAppTransportSecurity", "--type", "json", "{\"NSAllowsLocalNetworking\": true}"],
        ["plist", "set", "a.plist", "k", "--", "--not-an-option"],
        ["plist", "delete", "Info.plist", "UIRequiredDeviceCapabilities.0"],
        ["plist", "delete", "--backup", "a.plist", ":A:B", "--force"],
        ["lint"],
        ["lint", "Samples/lint/Clean"],
        ["lint", "--config", "devkit.yml", "--format", "sarif", "App/Info.plist", "App/App.entitlements"],
        ["lint", "--strict", "--fix", "--jobs", "3", "--enable", "a.b", "--enable", "c.d", "--disable", "e.f", "."],
        ["lint", "--no-config", "--built-product", "--configuration", "release", "--project-dir", "App", "--app", "Info.plist"],
        ["lint", "--list-rules"],
        ["lint", "--explain", "infoplist.short-version-format"],
        ["lint", "--format=github", "--config=x.yml", "dir"],
        ["lint", "--baseline", "devkit-baseline.json", "--format", "gitlab", "App"],
        ["lint", "--write-baseline", "devkit-baseline.json", "--strict", "App", "Other"],
        ["lint", "--baseline=b.json", "--format=junit", "--jobs", "2"],
        ["lint", "--write-baseline=b.json", "--format", "checkstyle", "--fix"],
        ["lint", "--color", "always", "App"],
        ["lint", "--color=never", "--baseline", "b.json", "--strict"],
        ["symbolicate", "--binary", "crashy", "0x100000394"],
        ["symbolicate", "--binary", "crashy", "--arch", "arm64", "--load-address", "0x104000000", "0x104000394", "0x1040003a0"],
        ["symbolicate", "--binary", "a.out", "--output-style", "gnu", "--no-inlines", "--no-demangle", "--stats", "--no-cache", "0x10"],
        ["symbolicate", "--binary", "a.out", "--build-id", "abcd", "--force", "--debug-dir", "d1", "--debug-dir", "d2", "0x10"],
        ["symbolicate", "crash.ips", "--search-path", "dsyms", "--format", "json", "--output", "out"],
        ["symbolicate", "core", "--executable", "prog", "--uuid", "1234"],
        ["symbolicate", "--names", "full", "crash.ips", "--search-path", "dsyms"],
        ["symbolicate", "--binary", "a.out", "--names=short", "0x10"],
        ["symbolicate", "--binary", "a.out", "--debuginfod", "http://127.0.0.1:8002", "0x10"],
        ["symbolicate", "--binary", "a.out", "--offline", "--debug-dir", "d", "0x10", "0x20"],
        ["symbolicate", "crash.ips", "--debuginfod", "http://a.example http://b.example", "--offline"],
        ["symbolicate", "--group", "crashes", "--format", "html", "--search-path", "dsyms", "--output", "groups.html"],
        ["symbolicate", "--group", "a.crash", "b.ips", "--format=json", "--no-cache"],
        ["symbolicate", "--group", "logs", "--names", "full", "--offline"],
        ["symbolicate", "crash.ips", "--format", "summary"],
        ["plist", "insert", "Info.plist", "UIBackgroundModes.0", "audio"],
        ["plist", "insert", "--type", "json", "Info.plist", "CFBundleURLTypes.end", "{\"CFBundleURLSchemes\": [\"x\"]}", "--backup"],
        ["plist", "insert", "a.plist", "A.-1", "--force", "--type=integer", "--", "-3"],
        ["plist", "rename", "Info.plist", "CFBundleName", "CFBundleDisplayName"],
        ["plist", "rename", "--backup", "--force", "a.plist", ":A:B", "C"],
        ["plist", "merge", "Info.plist", "extra.plist"],
        ["plist", "merge", "--at", "NSAppTransportSecurity", "--overwrite", "a.plist", "b.json", "--backup"],
        ["plist", "merge", "a.plist", "-", "--at=A.0", "--force"],
        ["plist", "diff", "a.plist", "b.plist"],
        ["plist", "diff", "--format", "json", "--color", "never", "a.plist", "b.bplist"],
        ["plist", "diff", "-", "b.plist", "--input-format=xml1", "--color=always"],
        ["heap", "record", "--", "./app"],
        ["heap", "record", "-o", "app.dkheap", "--", "./app", "--serve", "-v", "--", "x"],
        ["heap", "record", "--interval", "0.5s", "--mark-signal", "USR1", "--stack-depth=16", "--", "./app"],
        ["heap", "record", "--scan-at-exit", "--every-event", "--fork", "follow", "--output", "a.dkheap", "--", "./app", "-"],
        ["heap", "record", "--pid", "4242", "-o", "app.dkheap"],
        ["heap", "record", "--pid=4242", "--interval", "250ms", "--mark-signal", "SIGHUP", "--every-event"],
        ["heap", "record", "--pid", "4242", "--mark-signal=none"],
        ["heap", "record", "--", "--help"],
        ["heapdiff", "app.dkheap"],
        ["heapdiff", "-"],
        ["heapdiff", "before.dkheap", "after.dkheap", "--format", "json"],
        ["heapdiff", "app.dkheap", "--group-by", "function", "--until", "next", "--top", "5"],
        ["heapdiff", "app.dkheap", "--group-by", "site", "--depth", "3", "--names", "full", "--no-symbolicate"],
        ["heapdiff", "app.dkheap", "--until", "peak", "--format", "collapsed"],
        ["heapdiff", "app.dkheap", "--html", "heap.html", "--debug-dir", "/usr/lib/debug", "--debug-dir", "syms"],
        ["heapdiff", "app.dkheap", "--leaks", "--group-by", "type"],
        ["heapdiff", "--", "-odd.dkheap"],
    ]

    static let leftToArgumentParser: [[String]] = [
        ["plist", "get", "--help"],
        ["plist", "get", "-h"],
        ["plist", "get", "Samples/Info.plist"],
        ["plist", "get", "a", "b", "c"],
        ["plist", "get", "a", "b", "--raw", "--format", "json"],  // refused by validate()
        ["plist", "get", "a", "b", "--raw=yes"],
        ["plist", "get", "a", "b", "--format", "yaml"],
        ["plist", "get", "a", "b", "--format"],
        ["plist", "get", "a", "b", "--fromat", "json"],
        ["plist", "lint"],
        ["plist", "convert", "a.plist"],
        ["plist", "textconv"],
        ["plist", "textconv", "a.plist", "b.plist"],
        ["plist", "textconv", "a.plist", "--input-format"],
        ["plist", "textconv", "a.plist", "--color"],
        ["plist", "fmt"],  // refused by validate()
        ["plist", "fmt", "-", "-"],  // refused by validate()
        ["plist", "fmt", "a.plist", "-"],  // refused by validate()
        ["plist", "fmt", "--indent", "0", "a.plist"],
        ["plist", "fmt", "--indent", "spaces", "a.plist"],
        ["plist", "fmt", "--check=yes", "a.plist"],
        ["plist", "fmt", "-c", "a.plist"],
        ["plist", "convert", "a.plist", "b.plist", "--to", "json"],
        ["plist", "convert", "a.plist", "--to", "yaml"],
        ["plist", "convert", "a.plist", "--to"],
        ["plist", "convert", "a.plist", "--to", "json", "-h"],
        ["plist", "convert", "a.plist", "--to", "json", "-o"],
        ["plist", "convert", "a.plist", "--to", "json", "-o=out"],
        ["plist", "convert", "a.plist", "--to", "json", "-x"],
        ["plist", "convert", "a.plist", "--to", "json", "-io", "out"],
        ["plist", "convert", "a.plist", "--to", "json", "--lossy=yes"],
        ["plist", "convert", "a.plist", "--to", "json", "--in-place", "-o", "b"],  // refused by validate()
        ["plist", "convert", "-", "--to", "json", "--in-place"],  // refused by validate()
        ["plist", "convert", "a.plist", "--to", "json", "--backup"],  // refused by validate()
        ["plist", "convert", "a.plist", "--to", "json", "--force"],  // refused by validate()
        ["plist", "lint", "--format", "sarif", "a.plist"],
        ["plist", "set", "a.plist", "k"],
        ["plist", "set", "a.plist", "k", "-1"],
        ["plist", "set", "a.plist", "k", "-12"],
        ["plist", "set", "a.plist", "k", "v", "extra"],
        ["plist", "set", "a.plist", "k", "v", "--type", "yaml"],
        ["plist", "set", "a.plist", "k", "v", "--type"],
        ["plist", "set", "a.plist", "k", "v", "--backup=yes"],
        ["plist", "set", "a.plist", "k", "v", "--help"],
        ["plist", "delete", "a.plist"],
        ["plist", "delete", "a.plist", "k", "--type", "string"],
        ["plist", "delete", "a.plist", "k", "-h"],
        ["lint", "--jobs", "0"],
        ["lint", "--jobs", "many"],
        ["lint", "--configuration", "beta"],
        ["lint", "--config"],
        ["lint", "--config", "--strict"],
        ["lint", "-x"],
        ["lint", "--strict=1"],
        ["lint", "--baseline", "a.json", "--write-baseline", "b.json"],  // refused by validate()
        ["lint", "--baseline"],
        ["lint", "--write-baseline", "--strict"],
        ["lint", "--format", "xml"],
        ["lint", "--color", "sometimes"],
        ["lint", "--color"],
        ["symbolicate", "-s", "dsyms", "crash.ips"],
        ["symbolicate", "--binary", "a.out", "-o", "out", "0x10"],
        ["symbolicate", "--binary", "a.out", "--load-address", "zz", "0x10"],
        ["symbolicate", "--output-style", "fancy", "--binary", "a", "0x1"],
        ["symbolicate", "--names", "simplified", "crash.ips"],
        ["symbolicate", "--names"],
        ["symbolicate"],
        ["symbolicate", "--binary", "a.out", "--debuginfod"],
        ["symbolicate", "--binary", "a.out", "--offline=yes", "0x10"],
        ["symbolicate", "--group", "--binary", "a.out", "logs"],  // refused by validate()
        ["symbolicate", "--group", "--format", "same", "logs"],  // refused by validate()
        ["symbolicate", "--format", "html", "crash.ips"],  // refused by validate()
        ["symbolicate", "--group"],
        ["symbolicate", "--group=yes", "logs"],
        ["symbolicate", "--group", "--format", "pdf", "logs"],
        ["symbolicate", "--group", "--uuid", "abcd", "logs"],  // refused by validate()
        ["symbolicate", "--group", "--executable", "prog", "logs"],  // refused by validate()
        ["plist", "print"],
        ["plist", "print", "--color", "sometimes", "a.plist"],
        ["plist", "print", "--keypaths=yes", "a.plist"],
        ["plist", "print", "-k", "a.plist"],
        ["--version"],
        ["help", "lint"],
        ["plist", "insert", "a.plist", "A.0"],
        ["plist", "insert", "a.plist", "A.0", "x", "--type", "uuid"],
        ["plist", "insert", "a.plist", "A.0", "x", "--create-parents"],
        ["plist", "rename", "a.plist", "A"],
        ["plist", "rename", "a.plist", "A", "B", "C"],
        ["plist", "merge", "a.plist"],
        ["plist", "merge", "a.plist", "b.plist", "--at"],
        ["plist", "merge", "a.plist", "b.plist", "--overwrite=no"],
        ["plist", "diff", "a.plist"],
        ["plist", "diff", "-", "-"],  // refused by validate()
        ["plist", "diff", "a.plist", "b.plist", "--format", "sarif"],
        ["plist", "diff", "a.plist", "b.plist", "--color", "sometimes"],
        ["plist", "diff", "a.plist", "b.plist", "--help"],
        ["heap", "record", "--help"],
        ["heap", "record", "-h", "--", "./app"],
        ["heap", "record"],  // refused by validate()
        ["heap", "record", "./app"],  // ArgumentParser's: the program without `--`
        ["heap", "record", "./app", "--", "x"],
        ["heap", "record", "-o", "a.dkheap", "./app", "--serve"],
        ["heap", "record", "--stack-depth", "0", "--", "./app"],  // refused by validate()
        ["heap", "record", "--pid", "42", "--", "./app"],  // refused by validate()
        ["heap", "record", "--pid", "42", "--scan-at-exit"],  // refused by validate()
        ["heap", "record", "--pid", "0"],  // refused by validate()
        ["heap", "record", "--interval", "10", "--mark-signal", "none", "--", "./app"],  // refused by validate()
        ["heap", "record", "--interval", "-1", "--", "./app"],
        ["heap", "record", "--fork", "maybe", "--", "./app"],
        ["heap", "record", "--mark-signal", "USR9", "--", "./app"],
        ["heap", "record", "--every-event=yes", "--", "./app"],
        ["heap", "record", "--outptu", "a", "--", "./app"],
        ["heapdiff"],
        ["heapdiff", "--help"],
        ["heapdiff", "a.dkheap", "b.dkheap", "c.dkheap"],
        ["heapdiff", "a.dkheap", "--depth", "0"],  // refused by validate()
        ["heapdiff", "a.dkheap", "--top", "0"],  // refused by validate()
        ["heapdiff", "a.dkheap", "--html", "x.html", "--format", "json"],  // refused by validate()
        ["heapdiff", "a.dkheap", "b.dkheap", "--leaks"],  // refused by validate()
        ["heapdiff", "a.dkheap", "--leaks", "--until", "peak"],  // refused by validate()
        ["heapdiff", "a.dkheap", "--group-by", "colour"],
        ["heapdiff", "a.dkheap", "--format", "yaml"],
        ["heapdiff", "a.dkheap", "--leaks=yes"],
        ["heapdiff", "a.dkheap", "-f", "json"],
    ]

    @Test(arguments: readDirectly)
    func readsPlainLinesAsArgumentParserDoes(_ arguments: [String]) {
        let (read, agrees, detail) = Self.compare(arguments)
        #expect(read, "not read directly")
        #expect(agrees, "\(detail)")
    }

    /// `devkit atos` has one reader (`AtosArguments.parse`) behind both routes: ArgumentParser
    /// hands it atos's words unchanged, `--names` included, as a link named `atos` does.
    @Test(arguments: [
        ["-o", "App.dSYM", "--names", "full", "0x10"],
        ["--names=short", "-o", "App", "-l", "0x1000", "-i", "0x1010"],
    ])
    func atosWordsReachItsOwnReader(_ words: [String]) throws {
        let command = try #require(try DevKit.parseAsRoot(["atos"] + words) as? Atos)
        #expect(command.arguments == words)
        #expect(DirectParse.invocation(["atos"] + words) == nil)
    }

    @Test(arguments: leftToArgumentParser)
    func leavesEverythingElseToArgumentParser(_ arguments: [String]) {
        #expect(DirectParse.invocation(arguments) == nil)
    }

    /// Seeded shuffles of each plain line's options and positionals, values attached with `=`
    /// or not: whatever a reader accepts, ArgumentParser builds the same command from. Sixteen
    /// a line: a debug build's ArgumentParser checks the whole command tree at every parse
    /// (about 45 ms), and forty a line took a minute and a half of the suite's CPU time.
    @Test func shuffledLinesAgreeWithArgumentParser() {
        var generator = SplitMix64(seed: 0x5EED)
        var readCount = 0
        for line in Self.readDirectly {
            let path = DirectParse.invocations.first { line.starts(with: $0.commandPath) }!.commandPath
            let words = chunks(Array(line.dropFirst(path.count)))
            for _ in 0..<16 {
                var shuffled = words.shuffled(using: &generator)
                if Bool.random(using: &generator) {
                    shuffled = shuffled.map { $0.count == 2 && $0[0].hasPrefix("--") && !$0[1].hasPrefix("-") ? ["\($0[0])=\($0[1])"] : $0 }
                }
                let arguments = path + shuffled.flatMap { $0 }
                let (read, agrees, detail) = Self.compare(arguments)
                if read {
                    readCount += 1
                    #expect(agrees, "\(arguments)\n\(detail)")
                }
            }
        }
        #expect(readCount > Self.readDirectly.count * 4, "too few shuffled lines were read directly: \(readCount)")
    }

    /// An option with its value (`--format json`), a flag, or a positional, as one unit.
    private func chunks(_ words: [String]) -> [[String]] {
        var result: [[String]] = []
        var index = 0
        let flags: Set = ["--raw", "--strict", "--fix", "--list-rules", "--no-config", "--built-product", "--force",
                          "--no-demangle", "--no-inlines", "--stats", "--no-cache", "--group", "--offline",
                          "--lossy", "--in-place", "--backup", "--check", "--sort-keys", "--drop-comments", "--keypaths",
                          "--leaks", "--no-symbolicate"]
        while index < words.count {
            let word = words[index]
            if word == "--" { return result + [Array(words[index...])] }
            if word.hasPrefix("--") || word == "-o", !word.contains("="), !flags.contains(word), index + 1 < words.count {
                result.append([word, words[index + 1]])
                index += 2
            } else {
                result.append([word])
                index += 1
            }
        }
        return result
    }
}

