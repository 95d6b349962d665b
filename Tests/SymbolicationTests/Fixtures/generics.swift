// Swift fixture for the oracle tests: a generic type, a generic method taking a closure, and
// specializations the optimizer inlines (swiftc -g -O at test time).
struct Stack<Element> {
    var items: [Element] = []
    mutating func push(_ element: Element) { items.append(element) }
    func map<T>(_ transform: (Element) -> T) -> Stack<T> { Stack<T>(items: items.map(transform)) }
}

@inline(never) func work(_ n: Int) -> Int {
    var stack = Stack<Int>()
    for i in 0..<n { stack.push(i * 3) }
    let doubled = stack.map { $0 * 2 + n }
    return doubled.items.reduce(0, +)
}

print(work(CommandLine.arguments.count * 10))
