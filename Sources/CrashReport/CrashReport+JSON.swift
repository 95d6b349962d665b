import OrderedCollections
import PropertyList

extension CrashReport {
    /// The report as a property-list value, for PropertyList's JSON writer (one JSON writer
    /// in the project). Addresses are `0x…` strings; absent fields are left out.
    public var plistValue: PlistValue {
        var root = OrderedDictionary<String, PlistValue>()
        root["format"] = .string(format.rawValue)
        root["process"] = process.map(PlistValue.string)
        root["pid"] = processID.map(PlistValue.int)
        root["path"] = path.map(PlistValue.string)
        root["osVersion"] = osVersion.map(PlistValue.string)
        root["architecture"] = architecture.map(PlistValue.string)
        if let exception {
            var fields = OrderedDictionary<String, PlistValue>()
            fields["type"] = exception.type.map(PlistValue.string)
            fields["signal"] = exception.signal.map(PlistValue.string)
            fields["codes"] = exception.codes.map(PlistValue.string)
            fields["reason"] = exception.reason.map(PlistValue.string)
            fields["faultAddress"] = exception.faultAddress.map(hex)
            root["exception"] = .dictionary(fields)
        }
        root["kind"] = kind.map(PlistValue.string)
        root["terminationReason"] = terminationReason.map(PlistValue.string)
        let explanations = TerminationExplanation.lines(for: self)
        if !explanations.isEmpty { root["termination"] = .array(explanations.map(PlistValue.string)) }
        if !facts.isEmpty { root["facts"] = .array(facts.map(PlistValue.string)) }
        root["crashedThread"] = crashedThread.map { .int(Int64($0)) }
        root["threads"] = .array(threads.map(\.plistValue))
        root["binaryImages"] = .array(binaryImages.map(\.plistValue))
        if !lastExceptionBacktrace.isEmpty {
            root["lastExceptionBacktrace"] = .array(lastExceptionBacktrace.map(\.plistValue))
        }
        if !applicationSpecificInformation.isEmpty {
            root["applicationSpecificInformation"] = .array(applicationSpecificInformation.map(PlistValue.string))
        }
        return .dictionary(root)
    }
}

private func hex(_ value: UInt64) -> PlistValue { .string("0x" + String(value, radix: 16)) }

extension CrashThread {
    var plistValue: PlistValue {
        var fields = OrderedDictionary<String, PlistValue>()
        fields["index"] = .int(Int64(index))
        fields["name"] = name.map(PlistValue.string)
        fields["crashed"] = .bool(crashed)
        fields["frames"] = .array(frames.map(\.plistValue))
        if !registers.isEmpty {
            var bank = OrderedDictionary<String, PlistValue>()
            for register in registers { bank[register.name] = hex(register.value) }
            fields["registers"] = .dictionary(bank)
        }
        return .dictionary(fields)
    }
}

extension CrashFrame {
    var plistValue: PlistValue {
        var entry = OrderedDictionary<String, PlistValue>()
        entry["index"] = .int(Int64(index))
        entry["image"] = imageName.map(PlistValue.string)
        entry["address"] = address.map(hex)
        entry["imageOffset"] = imageOffset.map { .integer(PlistInteger($0)) }
        entry["symbol"] = symbol.map(PlistValue.string)
        entry["symbolOffset"] = symbolOffset.map { .integer(PlistInteger($0)) }
        entry["sourceLocation"] = sourceLocation.map(PlistValue.string)
        if isReturnAddress { entry["isReturnAddress"] = .bool(true) }
        entry["line"] = line.map { .int(Int64($0)) }
        return .dictionary(entry)
    }
}

extension CrashBinaryImage {
    var plistValue: PlistValue {
        var fields = OrderedDictionary<String, PlistValue>()
        fields["name"] = .string(name)
        fields["uuid"] = uuid.map(PlistValue.string)
        fields["loadAddress"] = loadAddress.map(hex)
        fields["endAddress"] = endAddress.map(hex)
        fields["arch"] = arch.map(PlistValue.string)
        fields["path"] = path.map(PlistValue.string)
        return .dictionary(fields)
    }
}
