/// A YAML text read through libyaml (`YAMLEventReader`): its one document's nodes, flat,
/// collections pointing at their children by index.
///
/// Bounds, because a configuration file is input like any other: nesting deeper than
/// `maximumDepth` is refused (libyaml's parser would follow it, the reader's walk would not
/// need it), and so is a document whose aliases expand to more than `maximumExpandedNodes`
/// nodes (a "billion laughs" of `*a` references costs nothing to store here, but everything
/// to walk). An alias may only name a node that is complete, so no node contains itself.
struct YAMLDocument: Sendable {
    static let maximumDepth = 64
    static let maximumExpandedNodes = 1 << 20

    /// Every node; children come before the collection that holds them.
    var nodes: [YAMLNode]
    /// The document's top node; nil for an empty text (or only comments).
    var root: Int?

    subscript(index: Int) -> YAMLNode { nodes[index] }

    /// True for an unquoted empty scalar: what libyaml reports for a document with no content.
    func isEmptyScalar(_ index: Int) -> Bool {
        if case .scalar("", isPlain: true) = nodes[index].content { return true }
        return false
    }

    init(parsing text: [UInt8]) throws(YAMLSyntaxError) {
        /// A sequence or mapping whose end has not been read yet.
        struct OpenCollection {
            var isMapping: Bool
            var anchor: String?
            var line: Int
            var column: Int
            var items: [Int] = []
        }
        let reader = try YAMLEventReader(text)
        var nodes: [YAMLNode] = []
        // Each node's size with aliases expanded, saturating (parallel to `nodes`).
        var expanded: [Int] = []
        var open: [OpenCollection] = []
        var anchors: [String: Int] = [:]
        var root: Int?
        var documents = 0
        while true {
            let finished: Int
            switch try reader.next() {
            case .documentStart(let line, let column):
                documents += 1
                // Invariant: one document, as in every configuration devkit reads.
                guard documents == 1 else {
                    throw YAMLSyntaxError(line: line, column: column, message: "a second document (---) in the file; it must hold one")
                }
                continue
            case .scalar(let value, let isPlain, let anchor, let line, let column):
                nodes.append(YAMLNode(content: .scalar(value, isPlain: isPlain), line: line, column: column))
                expanded.append(1)
                finished = nodes.count - 1
                if let anchor { anchors[anchor] = finished }
            case .sequenceStart(let anchor, let line, let column):
                try Self.checkDepth(open.count, line: line, column: column)
                open.append(OpenCollection(isMapping: false, anchor: anchor, line: line, column: column))
                continue
            case .mappingStart(let anchor, let line, let column):
                try Self.checkDepth(open.count, line: line, column: column)
                open.append(OpenCollection(isMapping: true, anchor: anchor, line: line, column: column))
                continue
            case .collectionEnd:
                guard let collection = open.popLast() else { continue }
                var size = 1
                for item in collection.items {
                    let (sum, overflow) = size.addingReportingOverflow(expanded[item])
                    size = overflow ? .max : sum
                }
                // Invariant: walking the document touches at most `maximumExpandedNodes` nodes.
                guard size <= Self.maximumExpandedNodes else {
                    throw YAMLSyntaxError(line: collection.line, column: collection.column,
                                          message: "aliases expand this node to more than \(Self.maximumExpandedNodes) nodes; refusing the file")
                }
                let content: YAMLNode.Content
                if collection.isMapping {
                    content = .mapping(stride(from: 0, to: collection.items.count - 1, by: 2).map { (collection.items[$0], collection.items[$0 + 1]) })
                } else {
                    content = .sequence(collection.items)
                }
                nodes.append(YAMLNode(content: content, line: collection.line, column: collection.column))
                expanded.append(size)
                finished = nodes.count - 1
                if let anchor = collection.anchor { anchors[anchor] = finished }
            case .alias(let name, let line, let column):
                // Invariant: an alias names a complete node, so the graph has no cycle.
                guard let target = anchors[name] else {
                    throw YAMLSyntaxError(line: line, column: column, message: "*\(name) names no anchor (&\(name)) defined before it")
                }
                finished = target
            case .streamEnd:
                self.nodes = nodes
                self.root = root
                return
            case .other:
                continue
            }
            if open.isEmpty { root = finished } else { open[open.count - 1].items.append(finished) }
        }
    }

    /// Invariant: nesting stays within `maximumDepth`.
    private static func checkDepth(_ depth: Int, line: Int, column: Int) throws(YAMLSyntaxError) {
        guard depth < maximumDepth else {
            throw YAMLSyntaxError(line: line, column: column, message: "nested deeper than \(maximumDepth) levels")
        }
    }
}
