/// Surviving blocks merged by call path (outermost frame first), each node with the blocks
/// and bytes of every stack that passes through it: the model of a heap flame graph.
public struct FlameGraph: Sendable, Equatable {
    public struct Node: Sendable, Equatable {
        public var name: String
        public var count: Int
        public var bytes: UInt64
        /// Largest bytes first (ties by name), so the layout is stable.
        public var children: [Node]
    }

    /// The whole: every block, named `all`.
    public var root: Node

    /// Frames kept of one path: the innermost `maximumDepth - 1`, under one node named
    /// `elidedFramesName` standing for all outer ones. Deep recursion (300 stacks 4,096 deep
    /// took 667 MB for `--html`, issue 15 §5) then costs a bounded tree, and building and
    /// laying it out recurse at most this deep.
    public static let maximumDepth = 256
    public static let elidedFramesName = "… outer frames left out"

    /// `paths` are frame names outermost first, each with the blocks and bytes at its end;
    /// paths deeper than `maximumDepth` keep their innermost frames.
    public init(paths: [(names: [String], count: Int, bytes: UInt64)]) {
        var builder = Builder(name: "all")
        for path in paths { builder.add(Self.bounded(path.names), count: path.count, bytes: path.bytes) }
        root = builder.node()
    }

    private static func bounded(_ names: [String]) -> ArraySlice<String> {
        guard names.count > maximumDepth else { return names[...] }
        return [elidedFramesName] + names.suffix(maximumDepth - 1)
    }

    /// The flame graph of `blocks`, their stacks symbolicated through `grouper` from the call
    /// site outwards (allocator frames left out, as in `--format collapsed`).
    public init(blocks: [HeapTimeline.Block], grouper: HeapGrouper) {
        var byStack: [UInt32: (count: Int, bytes: UInt64, seq: UInt64)] = [:]
        for block in blocks {
            let entry = byStack[block.stack] ?? (0, 0, block.seq)
            byStack[block.stack] = (entry.count + 1, entry.bytes &+ block.size, entry.seq)
        }
        // Each path cut to its bounded form at once, so only one full path is held at a time.
        self.init(paths: byStack.map { stack, entry in
            (Array(Self.bounded(grouper.callPath(stack: stack, at: entry.seq))), entry.count, entry.bytes)
        })
    }

    /// Children are kept in a dictionary while building, sorted once at the end.
    private struct Builder {
        var name: String
        var count = 0
        var bytes: UInt64 = 0
        var children: [String: Builder] = [:]

        init(name: String) { self.name = name }

        mutating func add(_ names: ArraySlice<String>, count: Int, bytes: UInt64) {
            self.count += count
            self.bytes &+= bytes
            guard let first = names.first else { return }
            children[first, default: Builder(name: first)].add(names.dropFirst(), count: count, bytes: bytes)
        }

        func node() -> Node {
            Node(name: name, count: count, bytes: bytes,
                 children: children.values.map { $0.node() }.sorted { ($0.bytes, $1.name) > ($1.bytes, $0.name) })
        }
    }
}

extension FlameGraph {
    /// Rectangles of the graph: the root spans `width`, each child sits inside its parent,
    /// siblings side by side from the parent's left edge, every width ∝ bytes.
    ///
    /// Positions are kept in bytes (`offset`, `bytes`: exact integers, so the nesting can be
    /// checked exactly) and derived in units of `width` (`x`, `width`) for drawing.
    public struct Layout: Sendable {
        public struct Rect: Sendable, Equatable {
            public var name: String
            /// 0 for the root; a child is one deeper than its parent.
            public var depth: Int
            /// Index in `rects` of the parent (nil for the root).
            public var parent: Int?
            /// Bytes to the left of the rectangle within the root.
            public var offset: UInt64
            public var bytes: UInt64
            public var count: Int
            public var x: Double
            public var width: Double
        }

        /// Parents before their children (depth-first, largest child first).
        public var rects: [Rect] = []
        public var totalWidth: Double
        /// Depth of the deepest rectangle kept, plus one.
        public var levels: Int { (rects.map(\.depth).max() ?? -1) + 1 }

        /// Rectangles narrower than `minimumWidth` are left out with everything above them:
        /// they could not be seen, and a big recording has many thousands.
        public init(_ graph: FlameGraph, width: Double, minimumWidth: Double = 0) {
            totalWidth = width
            let total = Double(graph.root.bytes)
            // bytes / total first: the root then spans exactly `width`, and a child (fewer
            // bytes) is never wider than its parent, even after rounding.
            func scaled(_ bytes: UInt64) -> Double { total == 0 ? 0 : Double(bytes) / total * width }
            func place(_ node: FlameGraph.Node, depth: Int, parent: Int?, offset: UInt64) {
                let w = scaled(node.bytes)
                guard parent == nil || w >= minimumWidth, parent == nil || node.bytes > 0 else { return }
                let index = rects.count
                rects.append(Rect(name: node.name, depth: depth, parent: parent, offset: offset, bytes: node.bytes,
                                  count: node.count, x: scaled(offset), width: w))
                var childOffset = offset
                for child in node.children {
                    place(child, depth: depth + 1, parent: index, offset: childOffset)
                    childOffset &+= child.bytes
                }
            }
            place(graph.root, depth: 0, parent: nil, offset: 0)
        }
    }
}
