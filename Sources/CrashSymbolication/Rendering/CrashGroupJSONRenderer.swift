import OrderedCollections
import PropertyList

/// `symbolicate --group --format json`: `logs`, `skipped`, `unreadable` (file, line,
/// message) and `groups`, most crashes first, each with its signature (`exception`, `frames`),
/// `count`, `first` and `last` (ISO 8601, UTC), `undated`, `appVersions`, `osVersions` and
/// `formats` (name and count, most first), `example` and its crashed thread's `exampleFrames`.
public struct CrashGroupJSONRenderer: Sendable {
    public init() {}

    public func render(_ report: CrashGroupReport) -> [UInt8] {
        var root = OrderedDictionary<String, PlistValue>()
        root["logs"] = .int(Int64(report.logs))
        root["skipped"] = .int(Int64(report.skipped))
        root["unreadable"] = .array(report.unreadable.map { log in
            var fields = OrderedDictionary<String, PlistValue>()
            fields["file"] = .string(log.file)
            fields["line"] = log.line.map { .int(Int64($0)) }
            fields["message"] = .string(log.message)
            return .dictionary(fields)
        })
        root["groups"] = .array(report.groups.map(group))
        // Every value here is a string, integer, array or dictionary: JSON can hold them all.
        return (try? PropertyListCoding.write(.dictionary(root), as: .json)) ?? Array("{}\n".utf8)
    }

    private func group(_ group: CrashGroup) -> PlistValue {
        var fields = OrderedDictionary<String, PlistValue>()
        fields["signature"] = .string(group.signature.description)
        fields["exception"] = .string(group.signature.exception)
        fields["frames"] = .array(group.signature.frames.map { frame in
            var entry = OrderedDictionary<String, PlistValue>()
            entry["image"] = .string(frame.image)
            entry["function"] = frame.function.map(PlistValue.string)
            entry["offset"] = frame.offset.map { .string(FrameText.hex($0)) }
            return .dictionary(entry)
        })
        fields["count"] = .int(Int64(group.count))
        fields["first"] = group.first.map { .string($0.iso8601) }
        fields["last"] = group.last.map { .string($0.iso8601) }
        fields["undated"] = .int(Int64(group.undated))
        fields["appVersions"] = counts(group.appVersions, key: "version")
        fields["osVersions"] = counts(group.osVersions, key: "version")
        fields["formats"] = counts(group.formats, key: "format")
        fields["example"] = .string(group.example)
        fields["exampleFrames"] = .array(group.exampleFrames.map { frame in
            var entry = OrderedDictionary<String, PlistValue>()
            entry["index"] = .int(Int64(frame.index))
            entry["image"] = .string(frame.image)
            entry["address"] = frame.address.map { .string(FrameText.hex($0)) }
            entry["function"] = .string(frame.function)
            entry["offset"] = frame.offset.map { .int(Int64(clamping: $0)) }
            entry["location"] = frame.location.map(PlistValue.string)
            entry["inlined"] = .bool(frame.inlined)
            entry["symbolicated"] = .bool(frame.symbolicated)
            return .dictionary(entry)
        })
        return .dictionary(fields)
    }

    private func counts(_ counts: [String: Int], key: String) -> PlistValue {
        .array(CrashGroup.sorted(counts).map { entry in
            var fields = OrderedDictionary<String, PlistValue>()
            fields[key] = .string(entry.name)
            fields["count"] = .int(Int64(entry.count))
            return .dictionary(fields)
        })
    }
}
