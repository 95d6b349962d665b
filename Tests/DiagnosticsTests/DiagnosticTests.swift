import Testing
import Diagnostics

@Suite struct DiagnosticTests {
    @Test(arguments: [
        (Diagnostic(file: "Info.plist", position: .text(line: 3, column: 7), message: "bad"), "Info.plist:3:7: error: bad"),
        (Diagnostic(file: "a.bplist", position: .byteOffset(0x1a2), message: "bad"), "a.bplist: offset 0x1a2: error: bad"),
        (Diagnostic(file: "a.plist", message: "gone"), "a.plist: error: gone"),
        (Diagnostic(position: .text(line: 1, column: 2), severity: .warning, message: "w"), "1:2: warning: w"),
        (Diagnostic(position: .byteOffset(16), message: "m"), "offset 0x10: error: m"),
        (Diagnostic(severity: .note, message: "plain"), "note: plain"),
    ])
    func rendersCompilerStyle(diagnostic: Diagnostic, expected: String) {
        #expect(diagnostic.description == expected)
    }

    @Test func inFileKeepsAnExistingFile() {
        let named = Diagnostic(file: "first", message: "m").inFile("second")
        #expect(named.file == "first")
        #expect(Diagnostic(message: "m").inFile("second").file == "second")
    }

    @Test func kindsCanBeSwitchedOn() {
        func handled(_ kind: DiagnosticKind) -> String {
            switch kind {
            case .fileNotFound: "missing"
            case .io: "io"
            default: "other"
            }
        }
        #expect(handled(Diagnostic(message: "m", kind: .fileNotFound).kind) == "missing")
        #expect(handled(Diagnostic(message: "m", kind: .io).kind) == "io")
        #expect(handled(Diagnostic(message: "m").kind) == "other")
    }

    @Test func severityOrderAndNames() {
        #expect(Severity.note < .warning && Severity.warning < .error)
        #expect(Severity(name: "info") == .note)
        #expect(Severity(name: "fatal") == nil)
    }
}
