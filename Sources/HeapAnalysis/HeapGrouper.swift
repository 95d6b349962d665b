/// Computes group keys for blocks, caching per stack.
public final class HeapGrouper {
    public let resolver: FrameResolver
    public let key: HeapGroupKey
    /// Frames of call site shown for `.site` (1 = only the allocating frame).
    public let depth: Int
    private var keysByStack: [UInt32: String] = [:]

    /// Modules whose frames are the allocator itself (malloc wrappers, operator new, Swift's
    /// swift_allocObject): a call site is the first frame outside them.
    static let allocatorModules = ["libc.so", "libstdc++.so", "libc++.so", "libc++abi.so", "libswiftCore.so"]

    public init(resolver: FrameResolver, key: HeapGroupKey, depth: Int = 1) {
        self.resolver = resolver
        self.key = key
        self.depth = max(depth, 1)
    }

    /// The index in `pcs` of the call site: the first frame outside the allocator modules
    /// (found by module alone, nothing is symbolicated).
    private func siteIndex(_ pcs: ArraySlice<UInt64>, at seq: UInt64) -> Int {
        pcs.firstIndex { pc in
            guard let module = resolver.place(of: pc, at: seq).module else { return true }
            return !Self.allocatorModules.contains { module.hasPrefix($0) }
        } ?? pcs.startIndex
    }

    /// The modules of the first `limit` frames from each stack's call site, each once, in the
    /// order of the stacks: what a report symbolicates, known before the events are replayed.
    /// Without a block's sequence number an address is placed in the module mapped there at
    /// the end (or, if none is, the last that ever was), so a module no block turns out to
    /// need may be among them.
    public func modulesNear(callSitesWithin limit: Int) -> [ModuleMapping] {
        guard limit > 0 else { return [] }
        var seen = Set<UInt64>(), modules: [ModuleMapping] = [], ids = Set<UInt32>()
        for stack in resolver.recording.stacks.ids {
            let pcs = resolver.recording.stacks[stack]
            for pc in pcs[siteIndex(pcs, at: .max)...].prefix(limit) where seen.insert(pc).inserted {
                if let module = resolver.module(containing: pc, at: .max), ids.insert(module.id).inserted { modules.append(module) }
            }
        }
        return modules
    }

    /// The frames of `stack` from the call site outwards, at most `limit`, symbolicated.
    public func siteFrames(stack: UInt32, at seq: UInt64, limit: Int = .max) -> [ReturnAddressLocation] {
        let pcs = resolver.recording.stacks[stack]
        return pcs[siteIndex(pcs, at: seq)...].prefix(limit).map { resolver.location(of: $0, at: seq) }
    }

    public func key(for block: HeapTimeline.Block) -> String {
        if key == .type {
            if block.typeMetadata != 0 { return resolver.typeName(metadata: block.typeMetadata, at: block.seq) }
            return "malloc \(block.size) bytes"
        }
        if let known = keysByStack[block.stack] { return known }
        let pcs = resolver.recording.stacks[block.stack]
        let text: String
        if pcs.isEmpty {
            text = resolver.recording.stacks.contains(block.stack) ? "<no frames>" : "<unknown stack \(block.stack)>"
        } else {
            let site = siteIndex(pcs, at: block.seq)
            switch key {
            case .site:
                text = pcs[site...].prefix(depth).map { resolver.location(of: $0, at: block.seq).display }
                    .joined(separator: " ← ")
            case .function: text = resolver.location(of: pcs[site], at: block.seq).functionName
            case .library: text = resolver.place(of: pcs[site], at: block.seq).module ?? "?"
            case .type: text = ""
            }
        }
        keysByStack[block.stack] = text
        return text
    }

    /// Groups, largest bytes first (ties by count, then key, so output is stable).
    public func groups(_ blocks: [HeapTimeline.Block]) -> [HeapGroup] {
        var totals: [String: HeapGroup] = [:]
        func add(_ name: String, count: Int, bytes: UInt64) {
            totals[name, default: HeapGroup(key: name, count: 0, bytes: 0)].count += count
            totals[name, default: HeapGroup(key: name, count: 0, bytes: 0)].bytes &+= bytes
        }
        if key == .type {
            for block in blocks { add(key(for: block), count: 1, bytes: block.size) }
        } else {
            // A key is one per stack (cached by the stack's first block): total the blocks per
            // stack id first, then hash each stack's key text once rather than once per block
            // (a string hash and two lookups per block were most of `heapdiff` on 100,000
            // Swift objects).
            // (An index per stack, not `subscript(_:default:)`, whose default capturing the
            // block cost an allocation per block.)
            var index: [UInt32: Int] = [:]
            var perStack: [(first: HeapTimeline.Block, count: Int, bytes: UInt64)] = []
            for block in blocks {
                if let i = index[block.stack] {
                    perStack[i].count += 1
                    perStack[i].bytes &+= block.size
                } else {
                    index[block.stack] = perStack.count
                    perStack.append((block, 1, block.size))
                }
            }
            for entry in perStack { add(key(for: entry.first), count: entry.count, bytes: entry.bytes) }
        }
        return totals.values.sorted {
            ($0.bytes, $0.count, $1.key) > ($1.bytes, $1.count, $0.key)
        }
    }

    /// Function names of `stack` from the outermost frame to the call site, a frame's inlined
    /// callees after it: the path of the stack in a flame graph.
    public func callPath(stack: UInt32, at seq: UInt64) -> [String] {
        var names: [String] = []
        for location in siteFrames(stack: stack, at: seq).reversed() {
            if location.frames.isEmpty { names.append(location.unresolved) }
            for frame in location.frames.reversed() { names.append(frame.function ?? location.unresolved) }
        }
        return names
    }

    /// Collapsed stacks (`root;…;site bytes`), the input of flamegraph.pl and speedscope.
    public func collapsedStacks(_ blocks: [HeapTimeline.Block], prefix: String? = nil) -> [String] {
        var bytesByStack: [UInt32: (UInt64, UInt64)] = [:]
        for block in blocks {
            let entry = bytesByStack[block.stack] ?? (0, block.seq)
            bytesByStack[block.stack] = (entry.0 &+ block.size, entry.1)
        }
        var lines: [String: UInt64] = [:]
        for (stack, (bytes, seq)) in bytesByStack {
            var names = callPath(stack: stack, at: seq)
            if let prefix { names.insert(prefix, at: 0) }
            let line = names.map { $0.replacingSemicolons() }.joined(separator: ";")
            lines[line, default: 0] &+= bytes
        }
        return lines.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
    }
}

extension String {
    fileprivate func replacingSemicolons() -> String {
        String(map { $0 == ";" ? ":" : $0 })
    }
}
