import CrashReport
import JSONWriter

/// MetricKit and KSCrash JSON with symbols filled in, every other byte as it was: the
/// frames' objects gain members (or have them replaced, when the file was symbolicated
/// before), nothing is reordered or reformatted.
///
/// - MetricKit (Apple defines no symbol fields for it): the fields devkit writes into `.ips`
///   frames, Apple's names for a symbolicated frame: `symbol` (the function the address is
///   in), `symbolLocation` (the offset into it), `sourceFile` and `sourceLine`; when the
///   address is in inlined code, `inlinedFrames`, the inlined calls innermost first, each
///   with `symbol`, `sourceFile`, `sourceLine` (in `.ips` they are frames of their own with
///   `"inline": true`; here a frame's `subFrames` are its callers, so they cannot be spliced
///   into the tree). Frames are matched by `binaryUUID` and `offsetIntoBinaryTextSegment`, and
///   whether they are a root (the innermost frame, looked up at its address) or a sub-frame
///   (a caller: a return address, looked up one byte back).
/// - KSCrash: its own `symbol_name` and `symbol_addr` (the symbol's start address), which
///   KSCrash writes on the device when it can, plus `source_file`, `source_line` and
///   `inlined_frames` in the format's spelling. Frames are matched by `instruction_addr` and
///   whether they are first in their backtrace.
///
/// New members go first in the object, right after `{`, so the object's own text stays
/// byte for byte behind them.
enum JSONFrameRewriter {
    static func rewrite(_ crash: SymbolicatedCrash, original: [UInt8]) -> [UInt8] {
        let isMetricKit = crash.report.format == .metricKit
        var byKey: [String: (symbols: CrashFrameSymbols, address: UInt64?)] = [:]
        for (frames, resolved) in zip(crash.report.threads.map(\.frames) + [crash.report.lastExceptionBacktrace],
                                      crash.threads + [crash.lastExceptionBacktrace]) {
            for (frame, result) in zip(frames, resolved) {
                guard let symbols = result.symbols else { continue }
                // A return address is looked up one byte back, so the same address can have
                // other symbols as a stack's first frame: that is part of the key.
                let first = !frame.isReturnAddress
                let key: String?
                if isMetricKit {
                    let uuid = result.imageIndex.flatMap { crash.report.binaryImages[$0].uuid }
                    key = uuid.flatMap { uuid in frame.imageOffset.map { "\(uuid):\($0):\(first)" } }
                } else {
                    key = frame.address.map { "\($0):\(first)" }
                }
                if let key { byKey[key] = (symbols, result.address ?? frame.address) }
            }
        }
        guard !byKey.isEmpty else { return original }

        let objects = JSONFrameScanner.frameObjects(in: original, arrayKeys: isMetricKit ? ["callStackRootFrames", "subFrames"] : ["contents"])
        var edits: [(range: Range<Int>, text: String)] = []
        for object in objects {
            let key: String?
            if isMetricKit {
                let uuid = object.members["binaryUUID"].map { Self.text(original, $0) }.map(Self.normalizedUUID)
                let offset = object.members["offsetIntoBinaryTextSegment"].flatMap { UInt64(Self.text(original, $0)) }
                // Roots are innermost frames; `subFrames` hold callers (return addresses).
                let first = object.arrayKey == "callStackRootFrames"
                key = uuid.flatMap { uuid in offset.map { "\(uuid):\($0):\(first)" } }
            } else {
                key = object.members["instruction_addr"].map { "\(Self.text(original, $0)):\(object.isFirst)" }
            }
            guard let key, let (symbols, address) = byKey[key] else { continue }
            let fields = isMetricKit ? metricKitFields(symbols) : ksCrashFields(symbols, address: address)
            var inserted: [String] = []
            for (name, value) in fields {
                if let existing = object.members[name] {
                    edits.append((existing, value))
                } else {
                    inserted.append(Self.quoted(name) + ": " + value)
                }
            }
            if !inserted.isEmpty {
                // `{}` takes the members alone; otherwise a comma parts them from the first old
                // one (and a space, unless the object's own text goes on with white space).
                let isEmpty = object.members.isEmpty && Self.nextNonSpace(original, after: object.open) == UInt8(ascii: "}")
                let spaced = object.open + 1 < original.count && [0x20, 0x09, 0x0A, 0x0D].contains(original[object.open + 1])
                edits.append(((object.open + 1)..<(object.open + 1), inserted.joined(separator: ", ") + (isEmpty ? "" : spaced ? "," : ", ")))
            }
        }
        edits.sort { $0.range.lowerBound < $1.range.lowerBound }
        var out: [UInt8] = []
        out.reserveCapacity(original.count + edits.count * 64)
        var copied = 0
        for edit in edits where edit.range.lowerBound >= copied {
            out += original[copied..<edit.range.lowerBound]
            out += edit.text.utf8
            copied = edit.range.upperBound
        }
        out += original[copied...]
        return out
    }

    /// The member names a format gives the fields devkit adds.
    private struct FieldNames {
        let symbol, file, line, inlined: String
    }

    /// `.ips`'s names: the outermost function with its offset and call line, inlined calls nested.
    private static func metricKitFields(_ symbols: CrashFrameSymbols) -> [(String, String)] {
        let names = FieldNames(symbol: "symbol", file: "sourceFile", line: "sourceLine", inlined: "inlinedFrames")
        let entries = FrameText.entries(symbols)
        guard let outer = entries.last else { return [] }
        return [(names.symbol, quoted(outer.function)), ("symbolLocation", String(outer.offset ?? 0))]
            + location(outer, file: names.file, line: names.line) + inlinedField(entries.dropLast(), names)
    }

    /// KSCrash's own names, and devkit's for what it has no field for.
    private static func ksCrashFields(_ symbols: CrashFrameSymbols, address: UInt64?) -> [(String, String)] {
        let names = FieldNames(symbol: "symbol_name", file: "source_file", line: "source_line", inlined: "inlined_frames")
        let entries = FrameText.entries(symbols)
        guard let outer = entries.last else { return [] }
        var fields = [(names.symbol, quoted(outer.function))]
        if let address, let offset = outer.offset, address >= offset { fields.append(("symbol_addr", String(address - offset))) }
        return fields + location(outer, file: names.file, line: names.line) + inlinedField(entries.dropLast(), names)
    }

    /// The inlined calls as a list of objects (none: no field).
    private static func inlinedField(_ entries: ArraySlice<FrameText.Entry>, _ names: FieldNames) -> [(String, String)] {
        guard !entries.isEmpty else { return [] }
        let objects = entries.map { entry in
            "{" + ([(names.symbol, quoted(entry.function))] + location(entry, file: names.file, line: names.line))
                .map { quoted($0.0) + ": " + $0.1 }.joined(separator: ", ") + "}"
        }
        return [(names.inlined, "[" + objects.joined(separator: ", ") + "]")]
    }

    /// The entry's file (last path component, as `.ips` writes it) and line, when known.
    private static func location(_ entry: FrameText.Entry, file: String, line: String) -> [(String, String)] {
        guard let path = entry.frame.file, entry.frame.line > 0 else { return [] }
        return [(file, quoted(path.split(separator: "/").last.map(String.init) ?? path)), (line, String(entry.frame.line))]
    }

    /// A JSON string literal, as every devkit JSON writer spells one.
    static func quoted(_ text: String) -> String {
        JSONWriter.inlineText(.string(text))
    }

    /// A member's value as written, without the quotes of a string.
    private static func text(_ bytes: [UInt8], _ range: Range<Int>) -> String {
        var value = bytes[range]
        if value.first == UInt8(ascii: "\""), value.count >= 2 { value = value.dropFirst().dropLast() }
        return String(decoding: value, as: UTF8.self)
    }

    /// As `CrashBinaryImage.uuid` spells UUIDs: lowercase hex without dashes.
    private static func normalizedUUID(_ text: String) -> String {
        String(text.lowercased().filter { $0 != "-" })
    }

    private static func nextNonSpace(_ bytes: [UInt8], after offset: Int) -> UInt8? {
        var index = offset + 1
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        return index < bytes.count ? bytes[index] : nil
    }
}
