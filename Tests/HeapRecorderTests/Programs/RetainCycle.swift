// 1000 instances of Node kept alive by reference cycles (each pair points at each other),
// made after a mark so they belong to the generation "cycles"; then 2000 instances of
// Scratch, each freed at once (pairs the recorder cancels, which keep their class).
// Built by HeapRecorderTests with: swiftc -g -Onone RetainCycle.swift -o retain-cycle
#if canImport(Glibc)
import Glibc
#endif

final class Node {
    var other: Node?
    var payload = 0
}

final class Scratch {
    var value = 0
}

typealias MarkFunction = @convention(c) (UnsafePointer<CChar>?) -> Void

func mark(_ label: String) {
    // devkit_heap_mark exists only under the recorder: look it up (RTLD_DEFAULT) instead of
    // linking it.
    guard let symbol = dlsym(nil, "devkit_heap_mark") else { return }
    let function = unsafeBitCast(symbol, to: MarkFunction.self)
    label.withCString { function($0) }
}

@inline(never)
func makeCycles() {
    for _ in 0..<500 {
        let a = Node(), b = Node()
        a.other = b
        b.other = a
    }
}

@inline(never)
func churn() {
    var total = 0
    for i in 0..<2000 {
        let scratch = Scratch()
        scratch.value = i
        total &+= scratch.value
    }
    if total == 0 { print(total) }
}

mark("cycles")
makeCycles()
mark("after")
churn()
