import CrashReport
import OrderedCollections
import PropertyList

/// The whole report as JSON (the parsed model), each frame with what symbolication found
/// (`symbolicated`: function, offset, file, line, column, inlined calls), each image with
/// how it was resolved, and the decoding rules' findings under `diagnosis`.
public struct CrashJSONRenderer: Sendable {
    public init() {}

    public func render(_ crash: SymbolicatedCrash) throws(PlistError) -> [UInt8] {
        guard case .dictionary(var root) = crash.report.plistValue else { return [] }
        if case .array(var threads)? = root["threads"] {
            for position in threads.indices where position < crash.threads.count {
                guard case .dictionary(var thread) = threads[position], case .array(let frames)? = thread["frames"] else { continue }
                thread["frames"] = .array(annotate(frames, crash.threads[position]))
                threads[position] = .dictionary(thread)
            }
            root["threads"] = .array(threads)
        }
        if case .array(let frames)? = root["lastExceptionBacktrace"] {
            root["lastExceptionBacktrace"] = .array(annotate(frames, crash.lastExceptionBacktrace))
        }
        if case .array(var images)? = root["binaryImages"] {
            for position in images.indices where position < crash.images.count {
                guard case .dictionary(var image) = images[position] else { continue }
                image["resolution"] = resolutionValue(crash.images[position])
                images[position] = .dictionary(image)
            }
            root["binaryImages"] = .array(images)
        }
        root["diagnosis"] = .array(crash.decodings.map { decoding in
            var fields = OrderedDictionary<String, PlistValue>()
            fields["rule"] = .string(decoding.rule)
            fields["register"] = decoding.register.map(PlistValue.string)
            fields["value"] = decoding.value.map { .string(FrameText.hex($0)) }
            fields["message"] = .string(decoding.message)
            return .dictionary(fields)
        })
        if !crash.warnings.isEmpty { root["warnings"] = .array(crash.warnings.map(PlistValue.string)) }
        return try PropertyListCoding.write(.dictionary(root), as: .json)
    }

    private func annotate(_ frames: [PlistValue], _ resolved: [SymbolicatedCrashFrame]) -> [PlistValue] {
        frames.enumerated().map { position, value in
            guard position < resolved.count, case .dictionary(var frame) = value else { return value }
            let result = resolved[position]
            if frame["address"] == nil, let address = result.address { frame["address"] = .string(FrameText.hex(address)) }
            if let symbols = result.symbols {
                var fields = OrderedDictionary<String, PlistValue>()
                let entries = FrameText.entries(symbols)
                if let outer = entries.last {
                    fields["function"] = .string(outer.function)
                    fields["offset"] = outer.offset.map { .integer(PlistInteger($0)) }
                    fields["file"] = outer.frame.file.map(PlistValue.string)
                    fields["line"] = outer.frame.line > 0 ? .int(Int64(outer.frame.line)) : nil
                    fields["column"] = outer.frame.column > 0 ? .int(Int64(outer.frame.column)) : nil
                }
                if entries.count > 1 {
                    fields["inlined"] = .array(entries.dropLast().map { entry in
                        var inlined = OrderedDictionary<String, PlistValue>()
                        inlined["function"] = .string(entry.function)
                        inlined["file"] = entry.frame.file.map(PlistValue.string)
                        inlined["line"] = entry.frame.line > 0 ? .int(Int64(entry.frame.line)) : nil
                        inlined["column"] = entry.frame.column > 0 ? .int(Int64(entry.frame.column)) : nil
                        return .dictionary(inlined)
                    })
                }
                fields["verified"] = .bool(symbols.verified)
                frame["symbolicated"] = .dictionary(fields)
            }
            return .dictionary(frame)
        }
    }

    private func resolutionValue(_ resolution: ImageResolution) -> PlistValue {
        var fields = OrderedDictionary<String, PlistValue>()
        switch resolution.status {
        case .found: fields["status"] = .string("found")
        case .missing: fields["status"] = .string("missing")
        case .mismatched(let path, let identifier):
            fields["status"] = .string("mismatched")
            fields["candidate"] = .string(path)
            fields["candidateIdentifier"] = .string(identifier)
        }
        fields["symbols"] = resolution.symbolsPath.map(PlistValue.string)
        fields["binary"] = resolution.binaryPath.map(PlistValue.string)
        if resolution.status == .found { fields["verified"] = .bool(resolution.verified) }
        return .dictionary(fields)
    }
}
