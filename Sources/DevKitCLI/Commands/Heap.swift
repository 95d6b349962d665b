import ArgumentParser

/// `devkit heap`: recording heap activity (analysis is `devkit heapdiff`).
struct Heap: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "heap",
        abstract: "Record a program's heap with generation marks (heapshots).",
        subcommands: [HeapRecord.self, HeapMark.self]
    )
}
