import ArgumentParser
@testable import DevKitCLI
import Testing

/// Every command names itself: without `commandName`, ArgumentParser derives the name with
/// `String(describing:)` on the type, whose first casts scan every protocol conformance record
/// in the binary — about a quarter of `devkit --version`'s instructions for two unnamed
/// commands (Scripts/bench/startup).
@Suite struct CommandNameTests {
    @Test func everyCommandHasAnExplicitName() {
        var unnamed: [String] = []
        var pending: [any ParsableCommand.Type] = [DevKit.self]
        var seen = 0
        while let command = pending.popLast() {
            seen += 1
            if command.configuration.commandName == nil { unnamed.append("\(command)") }
            pending.append(contentsOf: command.configuration.subcommands)
        }
        #expect(seen > 20, "walked only \(seen) commands")
        #expect(unnamed.isEmpty, "commands without commandName: \(unnamed)")
    }
}
