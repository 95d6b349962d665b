import ArgumentParser
@testable import DevKitCLI
import DevKitTestSupport
import Testing

/// The direct readers of `DirectlyParsed` commands against ArgumentParser: on every line a
/// reader accepts, the command it builds is the one ArgumentParser builds, every property
/// included (a property the reader forgot prints as ArgumentParser's `*definition*`); the
/// plain lines hooks and scripts use are read directly; help, short options, misspelt
/// options and bad values are left to ArgumentParser.
@Suite struct DirectParseTests {
    /// ArgumentParser's command and the direct reader's for one line (argv without devkit).
    static func both(_ arguments: [String]) -> (parser: String?, direct: String?) {
        let parsed = (try? DevKit.parseAsRoot(arguments)).map { String(describing: $0) }
        let direct = DirectParse.command(arguments).map { String(describing: $0) }
        return (parsed, direct)
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
        ["lint"],
        ["lint", "Samples/lint/Clean"],
        ["lint", "--config", "devkit.yml", "--format", "sarif", "App/Info.plist", "App/App.entitlements"],
        ["lint", "--strict", "--fix", "--jobs", "3", "--enable", "a.b", "--enable", "c.d", "--disable", "e.f", "."],
        ["lint", "--no-config", "--built-product", "--configuration", "release", "--project-dir", "App", "--app", "Info.plist"],
        ["lint", "--list-rules"],
        ["lint", "--explain", "infoplist.short-version-format"],
        ["lint", "--format=github", "--config=x.yml", "dir"],
        ["symbolicate", "--binary", "crashy", "0x100000394"],
        ["symbolicate", "--binary", "crashy", "--arch", "arm64", "--load-address", "0x104000000", "0x104000394", "0x1040003a0"],
        ["symbolicate", "--binary", "a.out", "--output-style", "gnu", "--no-inlines", "--no-demangle", "--stats", "--no-cache", "0x10"],
        ["symbolicate", "--binary", "a.out", "--build-id", "abcd", "--force", "--debug-dir", "d1", "--debug-dir", "d2", "0x10"],
        ["symbolicate", "crash.ips", "--search-path", "dsyms", "--format", "json", "--output", "out"],
        ["symbolicate", "core", "--executable", "prog", "--uuid", "1234"],
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
        ["plist", "lint", "--format", "sarif", "a.plist"],
        ["lint", "--jobs", "0"],
        ["lint", "--jobs", "many"],
        ["lint", "--configuration", "beta"],
        ["lint", "--config"],
        ["lint", "--config", "--strict"],
        ["lint", "-x"],
        ["lint", "--strict=1"],
        ["symbolicate", "-s", "dsyms", "crash.ips"],
        ["symbolicate", "--binary", "a.out", "-o", "out", "0x10"],
        ["symbolicate", "--binary", "a.out", "--load-address", "zz", "0x10"],
        ["symbolicate", "--output-style", "fancy", "--binary", "a", "0x1"],
        ["symbolicate"],
        ["plist", "print", "Samples/Info.plist"],
        ["--version"],
        ["help", "lint"],
    ]

    @Test(arguments: readDirectly)
    func readsPlainLinesAsArgumentParserDoes(_ arguments: [String]) {
        let (parsed, direct) = Self.both(arguments)
        #expect(direct != nil, "not read directly")
        #expect(parsed != nil, "ArgumentParser refuses it")
        #expect(direct == parsed)
        #expect(direct?.contains("definition") == false, "a property left unset: \(direct ?? "")")
    }

    @Test(arguments: leftToArgumentParser)
    func leavesEverythingElseToArgumentParser(_ arguments: [String]) {
        #expect(DirectParse.command(arguments) == nil)
    }

    /// Seeded shuffles of each plain line's options and positionals, values attached with `=`
    /// or not: whatever a reader accepts, ArgumentParser builds the same command from.
    @Test func shuffledLinesAgreeWithArgumentParser() {
        var generator = SplitMix64(seed: 0x5EED)
        var readCount = 0
        for line in Self.readDirectly {
            let path = DirectParse.commands.first { line.starts(with: $0.commandPath) }!.commandPath
            let words = chunks(Array(line.dropFirst(path.count)))
            for _ in 0..<40 {
                var shuffled = words.shuffled(using: &generator)
                if Bool.random(using: &generator) {
                    shuffled = shuffled.map { $0.count == 2 && $0[0].hasPrefix("--") && !$0[1].hasPrefix("-") ? ["\($0[0])=\($0[1])"] : $0 }
                }
                let arguments = path + shuffled.flatMap { $0 }
                let (parsed, direct) = Self.both(arguments)
                if let direct {
                    readCount += 1
                    #expect(direct == parsed, "\(arguments)")
                }
            }
        }
        #expect(readCount > Self.readDirectly.count * 10, "too few shuffled lines were read directly: \(readCount)")
    }

    /// An option with its value (`--format json`), a flag, or a positional, as one unit.
    private func chunks(_ words: [String]) -> [[String]] {
        var result: [[String]] = []
        var index = 0
        let flags: Set = ["--raw", "--strict", "--fix", "--list-rules", "--no-config", "--built-product", "--force",
                          "--no-demangle", "--no-inlines", "--stats", "--no-cache"]
        while index < words.count {
            let word = words[index]
            if word == "--" { return result + [Array(words[index...])] }
            if word.hasPrefix("--"), !word.contains("="), !flags.contains(word), index + 1 < words.count {
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

extension SplitMix64: RandomNumberGenerator {}
