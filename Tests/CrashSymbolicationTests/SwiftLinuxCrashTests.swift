import CrashReport
import CrashSymbolication
import DevKitTestSupport
import Foundation
import Symbolication
import Testing

/// A Swift program built at test time with `swiftc -g` crashes under the runtime's
/// backtracer twice, at the same addresses (`setarch -R`): once with `symbolicate=off`,
/// once symbolicated by the runtime. devkit's symbolication of the first must give the
/// source positions (and function names) the runtime printed in the second, inlined frames
/// included.
@Suite(.serialized) struct SwiftLinuxCrashTests {
    static let source = """
        func level3(_ p: UnsafeMutablePointer<Int>) -> Int { return p.pointee }
        func level2(_ x: Int) -> Int { return level3(UnsafeMutablePointer<Int>(bitPattern: x)!) + 1 }
        func level1(_ x: Int) -> Int { return level2(x) * 2 }

        let mode = CommandLine.arguments.count > 1 ? CommandLine.arguments[1] : "bad-pointer"
        let count = CommandLine.arguments.count
        switch mode {
        case "force-unwrap":
            let value: Int? = count > 100 ? 1 : nil
            print(value!)
        case "index":
            let array = [1, 2, 3]
            print(array[count + 5])
        case "fatal":
            fatalError("Something went badly wrong")
        case "overflow":
            print(Int.max - 1 + count)
        default:
            print(level1(8))
        }

        """

    static let program: String? = {
        guard let swiftc = TestProcess.find("swiftc"), TestProcess.find("setarch") != nil,
              let directory = try? TestProcess.temporaryDirectory("devkit-swift-crash") else { return nil }
        let file = directory.appendingPathComponent("crasher.swift")
        guard (try? source.write(to: file, atomically: true, encoding: .utf8)) != nil,
              let result = try? TestProcess.run(swiftc, ["-g", "-Onone", file.path, "-o", directory.appendingPathComponent("crasher").path]),
              result.status == 0 else { return nil }
        return directory.appendingPathComponent("crasher").path
    }()

    /// The program's backtrace (stderr) with `options`, run without address randomisation.
    static func backtrace(_ program: String, _ mode: String, _ options: String) throws -> [UInt8] {
        let setarch = try #require(TestProcess.find("setarch"))
        var environment = ProcessInfo.processInfo.environment
        environment["SWIFT_BACKTRACE"] = "enable=yes,interactive=no,\(options)"
        let result = try TestProcess.run(setarch, ["-R", program, mode], environment: environment)
        #expect(result.status != 0)
        return Array(result.stderr.utf8)
    }

    @Test(arguments: ["bad-pointer", "force-unwrap", "index", "fatal", "overflow"], ["text", "json"])
    func symbolicationEqualsTheRuntimes(_ mode: String, _ form: String) throws {
        guard let program = Self.program else {
            print("skipped: swiftc or setarch missing, or the program did not build")
            return
        }
        let json = form == "json" ? ",format=json" : ""
        let raw = try CrashReportParser.parse(try Self.backtrace(program, mode, "symbolicate=off\(json)")).report
        let runtime = try CrashReportParser.parse(try Self.backtrace(program, mode, "symbolicate=full")).report
        #expect(raw.format == .swiftBacktrace && runtime.format == .swiftBacktrace)

        var options = SymbolicationOptions()
        options.cacheDirectory = nil
        options.names = .short
        let symbolicator = CrashSymbolicator(resolver: ImageResolver(catalog: ImageCatalog(searchPaths: [])), options: options)
        let crash = symbolicator.symbolicate(raw)
        let image = try #require(raw.binaryImages.firstIndex { $0.name == "crasher" })
        #expect(crash.images[image].status == .found && crash.images[image].verified)

        // The runtime's frames in the program, inlined ones included (same address, `[inlined]`).
        let crashedThread = runtime.threads.first { $0.crashed }
        let thread = try #require(crashedThread)
        let expected = thread.frames.filter { $0.imageName == "crasher" }
        // devkit's: each raw frame's chain, innermost first.
        let rawCrashed = raw.threads.firstIndex { $0.crashed }
        let rawThread = try #require(rawCrashed)
        var actual: [(name: String?, location: String?)] = []
        for (frame, result) in zip(raw.threads[rawThread].frames, crash.threads[rawThread]) where frame.imageName == "crasher" {
            let where_ = "frame \(frame.index)"
            let symbols = try #require(result.symbols, Comment(rawValue: where_))
            for entry in symbols.frames {
                // The runtime writes a line-0 position (the compiler's runtime-failure frame) as the file alone.
                let location = entry.file.map { entry.line == 0 ? $0 : "\($0):\(entry.line)\(entry.column > 0 ? ":\(entry.column)" : "")" }
                actual.append((entry.function, location))
            }
        }
        #expect(actual.count == expected.count, "\(actual) vs \(expected.map { ($0.symbol, $0.sourceLocation) })")
        for (mine, theirs) in zip(actual, expected) {
            #expect(mine.location == theirs.sourceLocation, "\(mine) vs \(theirs.symbol ?? "?")")
            // The runtime prints short names (`level3(_:)`), and so does devkit asked for them.
            #expect(mine.name == theirs.symbol, "\(mine.name ?? "nil") vs \(theirs.symbol ?? "nil")")
        }
        // The decoding rules say what happened in plain words.
        let messages = crash.decodings.map(\.message)
        switch mode {
        case "bad-pointer": #expect(messages.contains { $0.hasPrefix("null pointer dereference (offset 0x8), in ") })
        case "index": #expect(messages.contains { $0.hasPrefix("Swift runtime error: Fatal error: Index out of range, in ") })
        case "fatal": #expect(messages.contains { $0.hasPrefix("Swift runtime error: Fatal error: Something went badly wrong, in ") })
        case "force-unwrap": #expect(messages.contains { $0.hasPrefix("Swift runtime error: Fatal error: Unexpectedly found nil while unwrapping an Optional value") })
        default: #expect(messages.contains { $0.hasPrefix("Swift runtime error: arithmetic overflow") })
        }
    }

    /// Every Swift symbol of the program: devkit's short names equal `swift-demangle
    /// --simplified`, its full names `swift-demangle` (as SymbolicationTests' SwiftNameTests
    /// checks for the other Swift test programs).
    @Test(arguments: NameForm.allCases)
    func namesEqualSwiftDemangle(_ form: NameForm) throws {
        guard let program = Self.program, SwiftDemangleOracle.tool != nil else {
            print("skipped: swiftc, setarch or swift-demangle missing, or the program did not build")
            return
        }
        let names = try SwiftDemangleOracle.swiftSymbols(of: program)
        #expect(names.count > 20)
        let expected = try SwiftDemangleOracle.demangle(names, simplified: form == .short)
        let demangler = Demangler(names: form)
        let differing = zip(names, expected).filter { demangler.demangle($0.0) != $0.1 }
        #expect(differing.isEmpty, "\(differing.count) of \(names.count) differ: \(differing.prefix(10))")
    }
}
