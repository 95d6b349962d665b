import ArgumentParser
import HeapAnalysis
import Symbolication

/// `devkit heapdiff`: generations of one recording, or two recordings compared.
struct Heapdiff: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "heapdiff",
        abstract: "Show what each generation of a heap recording left alive, or compare two recordings.",
        discussion: """
            With one recording: a table of generations (allocations made in each, how many are \
            still alive at the end of the recording — or at the next mark with --until next — \
            and the heap's growth), then the largest groups of survivors per generation, the peak \
            of live bytes (when, in which generation, and what was alive then, by group) and a \
            chart of live bytes over time. With --until peak the survivors are the blocks alive \
            at the peak (--format collapsed: the peak's stacks). With two: blocks alive at the \
            end of A and of B, per group, largest growth first.

            Examples:
              devkit heapdiff app.dkheap
              devkit heapdiff app.dkheap --group-by function --until next --top 5
              devkit heapdiff before.dkheap after.dkheap --format json
              devkit heapdiff app.dkheap --format collapsed | flamegraph.pl > heap.svg
              devkit heapdiff app.dkheap --html heap.html
              devkit heapdiff app.dkheap --until peak --format collapsed | flamegraph.pl > peak.svg
              devkit heapdiff app.dkheap --leaks
              devkit heapdiff app.dkheap --group-by function --names full

            With --leaks (a recording made with `devkit heap record --scan-at-exit`), each \
            generation's blocks alive at exit are split by the recorder's \
            exit scan into valgrind memcheck's kinds: definitely lost (nothing points to \
            them), indirectly lost (only lost blocks do), possibly lost (reached only through \
            pointers into their middle) and still reachable (abandoned: never freed). \
            --format collapsed then gives the stacks of the leaked (definitely and indirectly \
            lost) bytes; --html a page with the tables and a flame graph of the leaked bytes \
            per generation.
            """
    )

    @Argument(help: "A recording (from devkit heap record).")
    var recording: String

    @Argument(help: "A second recording to compare against the first.")
    var other: String?

    @Option(name: .long, help: "Group by site, function, type or library.")
    var groupBy: GroupKeyArgument = .init(key: .site)

    @Option(name: .long, help: "Call-site frames shown with --group-by site.")
    var depth: Int = 1

    @Option(name: .long, help: "Count blocks alive at the end, at the next mark, or at the peak of live bytes (end|next|peak).")
    var until: Horizon = .end

    @Option(name: .long, help: "Groups listed per generation.")
    var top: Int = 10

    @Option(name: .long, help: "Output: text, json, or collapsed (collapsed stacks of surviving bytes).")
    var format: Format?

    @Option(name: .long, help: ArgumentHelp("Write a self-contained HTML page (tables and flame graphs) instead of printing.", valueName: "file"))
    var html: String?

    @Flag(name: .long, help: "Split blocks alive at exit into memcheck's leak kinds: definitely, indirectly, possibly lost, still reachable (needs heap record --scan-at-exit).")
    var leaks = false

    @Flag(name: .long, help: "Show frames as module+0xOFFSET without reading symbols.")
    var noSymbolicate = false

    @Option(name: .long, help: "Swift names: short (Xcode's, as swift-demangle --simplified; the default) or full (swift-demangle's).")
    var names: NameForm = .short

    @Option(name: .long, help: "A directory searched for separate debug files (repeatable).")
    var debugDir: [String] = []

    var invocation: HeapdiffInvocation {
        HeapdiffInvocation(recording: recording, other: other, groupBy: groupBy, depth: depth, until: until, top: top, format: format,
                           html: html, leaks: leaks, noSymbolicate: noSymbolicate, names: names, debugDir: debugDir)
    }

    func validate() throws { try invocation.validate() }

    func run() throws { try invocation.run() }
}

extension Heapdiff {
    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json, collapsed

        var sessionFormat: HeapdiffSession.Format {
            switch self {
            case .text: .text
            case .json: .json
            case .collapsed: .collapsed
            }
        }
    }

    enum Horizon: String, ExpressibleByArgument, CaseIterable {
        case end, next, peak

        var horizon: HeapTimeline.Horizon {
            switch self {
            case .end: .end
            case .next: .nextMark
            case .peak: .peak
            }
        }
    }

    struct GroupKeyArgument: ExpressibleByArgument, Equatable {
        var key: HeapGroupKey
        init(key: HeapGroupKey) { self.key = key }
        init?(argument: String) {
            guard let key = HeapGroupKey(rawValue: argument) else { return nil }
            self.key = key
        }
        static var allValueStrings: [String] { HeapGroupKey.allCases.map(\.rawValue) }
        var defaultValueDescription: String { key.rawValue }
    }
}
