import CrashReport
import OrderedCollections
import PropertyList

/// `.ips`: the header line as it was, the body with symbolicated frames.
enum IPSRewriter {
    static func rewrite(_ crash: SymbolicatedCrash, original: [UInt8]) throws(PlistError) -> [UInt8] {
        guard let newline = original.firstIndex(of: 0x0A) else { return original }
        let header = original[...newline]
        var body = try PropertyListCoding.read(Array(original[(newline + 1)...]), format: .json).value
        guard case .dictionary(var fields) = body else { return original }
        if case .array(var threads)? = fields["threads"] {
            for position in threads.indices where position < crash.threads.count {
                guard case .dictionary(var thread) = threads[position], case .array(let frames)? = thread["frames"] else { continue }
                thread["frames"] = .array(symbolicate(frames, crash.threads[position]))
                threads[position] = .dictionary(thread)
            }
            fields["threads"] = .array(threads)
        }
        if case .array(let frames)? = fields["lastExceptionBacktrace"] {
            fields["lastExceptionBacktrace"] = .array(symbolicate(frames, crash.lastExceptionBacktrace))
        }
        body = .dictionary(fields)
        return Array(header) + (try PropertyListCoding.write(body, as: .json))
    }

    /// Each frame gains Apple's keys; an inlined chain becomes `"inline": true` frames
    /// before the frame that holds it, as Apple's symbolicated `.ips` files show them.
    private static func symbolicate(_ frames: [PlistValue], _ resolved: [SymbolicatedCrashFrame]) -> [PlistValue] {
        var result: [PlistValue] = []
        for (position, value) in frames.enumerated() {
            guard position < resolved.count, let symbols = resolved[position].symbols, case .dictionary(let frame) = value else {
                result.append(value)
                continue
            }
            for entry in FrameText.entries(symbols) {
                var fields = frame
                fields["symbol"] = .string(entry.function)
                fields["symbolLocation"] = .integer(PlistInteger(entry.offset ?? 0))
                if let file = entry.frame.file, entry.frame.line > 0 {
                    fields["sourceFile"] = .string(file.split(separator: "/").last.map(String.init) ?? file)
                    fields["sourceLine"] = .int(Int64(entry.frame.line))
                }
                if entry.isInlined { fields["inline"] = .bool(true) }
                result.append(.dictionary(fields))
            }
        }
        return result
    }
}
