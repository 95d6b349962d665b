// Benchmark workload for Scripts/bench/heap (`swift`): a Swift program allocating class
// instances. Builds 2,000 binary trees of 511 nodes (about a million `Node` instances, each
// through swift_allocObject and malloc), sums each, keeps every 100th tree alive, and grows an
// array of `Token` instances (arrays reallocate their storage as they grow). Built by
// Scripts/bench/heap with swiftc -O.
final class Node {
    let left: Node?
    let right: Node?
    let value: Int
    init(left: Node?, right: Node?, value: Int) {
        self.left = left
        self.right = right
        self.value = value
    }
}

final class Token {
    let text: String
    init(_ n: Int) { text = n.isMultiple(of: 2) ? "even" : "odd" }
}

@inline(never) func makeTree(depth: Int, value: Int) -> Node {
    if depth == 0 { return Node(left: nil, right: nil, value: value) }
    return Node(left: makeTree(depth: depth - 1, value: value &* 2), right: makeTree(depth: depth - 1, value: value &* 2 &+ 1), value: value)
}

@inline(never) func sum(_ node: Node?) -> Int {
    guard let node else { return 0 }
    return node.value &+ sum(node.left) &+ sum(node.right)
}

var kept: [Node] = []
var total = 0
for i in 0..<2000 {
    let tree = makeTree(depth: 8, value: i)
    total &+= sum(tree)
    if i % 100 == 0 { kept.append(tree) }
}
var tokens: [Token] = []
for i in 0..<100_000 { tokens.append(Token(i)) }
print(total, kept.count, tokens.count)
