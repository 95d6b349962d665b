import ArgumentParser
import HeapAnalysis
import HeapSymbolication
import Symbolication
import System

/// One run of `devkit heapdiff`: its arguments and what it does with them. Built by
/// ArgumentParser's `Heapdiff` or read directly (`DirectlyParsed`): ArgumentParser's
/// reflection cost every report a few milliseconds before the recording was opened.
struct HeapdiffInvocation: DirectlyParsed {
    static let commandPath = ["heapdiff"]

    var recording = ""
    var other: String?
    var groupBy = Heapdiff.GroupKeyArgument(key: .site)
    var depth = 1
    var until = Heapdiff.Horizon.end
    var top = 10
    var format: Heapdiff.Format?
    var html: String?
    var leaks = false
    var noSymbolicate = false
    var names = NameForm.short
    var debugDir: [String] = []

    static func read(_ arguments: inout DirectArguments) -> HeapdiffInvocation? {
        var invocation = HeapdiffInvocation()
        while let option = arguments.nextOption() {
            let read = switch option {
            case "--group-by": arguments.read(into: &invocation.groupBy)
            case "--depth": arguments.read(into: &invocation.depth)
            case "--until": arguments.read(into: &invocation.until)
            case "--top": arguments.read(into: &invocation.top)
            case "--format": arguments.read(into: &invocation.format)
            case "--html": arguments.read(into: &invocation.html)
            case "--leaks": arguments.set(&invocation.leaks)
            case "--no-symbolicate": arguments.set(&invocation.noSymbolicate)
            case "--names": arguments.read(into: &invocation.names)
            case "--debug-dir": arguments.append(to: &invocation.debugDir)
            default: false
            }
            guard read else { return nil }
        }
        guard (1...2).contains(arguments.positionals.count) else { return nil }
        invocation.recording = arguments.positionals[0]
        invocation.other = arguments.positionals.count == 2 ? arguments.positionals[1] : nil
        return invocation
    }

    func validate() throws {
        guard depth >= 1 else { throw ValidationError("--depth must be at least 1.") }
        guard top >= 1 else { throw ValidationError("--top must be at least 1.") }
        if html != nil, format != nil { throw ValidationError("--html and --format are alternatives; give one.") }
        if leaks {
            guard other == nil else { throw ValidationError("--leaks takes one recording.") }
            guard until == .end else { throw ValidationError("--leaks reports blocks alive at the end (--until end).") }
        }
    }

    func run() throws {
        let symbolizer = ImageHeapSymbolizer(debugDirectories: debugDir, names: names)
        defer { symbolizer.problems.forEach { FileHandleOutput.standardError("warning: not symbolicated: \($0)\n") } }
        let options = HeapdiffSession.Options(groupBy: groupBy.key, depth: depth, horizon: until.horizon,
                                              top: top, leaks: leaks)
        let session = HeapdiffSession(options: options, symbolizer: noSymbolicate ? nil : symbolizer) { FileHandleOutput.standardError($0) }
        let output: [UInt8]
        do { output = try session.report(recording, comparedWith: other, as: html != nil ? .html : (format ?? .text).sessionFormat) } catch {
            throw CommandFailure.input(error.message)
        }
        guard let html else { return try FileHandleOutput.standardOutput(output) }
        // The page replaces the file atomically: a browser reloading it never sees half a page.
        do { try FileIO.writeAtomically(output, to: html) } catch { throw CommandFailure.diagnostic(error) }
        if html != FileIO.standardStream { FileHandleOutput.standardError("devkit: HTML report written to \(html)\n") }
    }
}
