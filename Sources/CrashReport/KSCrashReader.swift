import PropertyList

/// Reads a KSCrash JSON report (the crash reporter many apps embed): `report`, `system`,
/// `binary_images[]` (`image_addr`, `image_size`, `name`, `uuid`, `cpu_type`) and `crash`
/// (`error` with its `mach` / `signal` / `nsexception` / `cpp_exception` parts, `threads[]`
/// with `backtrace.contents[]` and `registers.basic`).
///
/// KSCrash writes addresses as plain JSON integers; PropertyList's reader keeps them exact up
/// to `UInt64.max`, as for `.ips`.
enum KSCrashReader {
    static func read(_ bytes: ArraySlice<UInt8>) throws(CrashReportError) -> CrashReportDocument {
        var warnings: [CrashDiagnostic] = []
        func warn(_ message: String) { warnings.append(CrashDiagnostic(line: nil, message: message)) }
        let value = try readJSON(bytes, firstLine: 1, what: "KSCrash JSON", column: true, warn: warn)
        guard case .dictionary(let top) = value else {
            throw CrashReportError(line: 1, message: "the KSCrash report is a JSON \(value.typeName), not an object")
        }
        // A report KSCrash recrashed while writing keeps the first attempt under `recrash_report`.
        guard case .dictionary(let crash)? = top["crash"] else {
            throw CrashReportError(line: 1, message: top["crash"].map { "crash is a JSON \($0.typeName), not an object" } ?? "no crash object: not a KSCrash report")
        }
        var report = CrashReport(format: .kscrash)
        if case .dictionary(let system)? = top["system"] {
            report.process = system["CFBundleExecutable"]?.string ?? system["process_name"]?.string
            report.processID = system["process_id"]?.integer?.int64Value
            report.path = system["CFBundleExecutablePath"]?.string
            if let name = system["system_name"]?.string, let version = system["system_version"]?.string {
                report.osVersion = "\(name) \(version)" + (system["os_version"]?.string.map { " (\($0))" } ?? "")
            }
            report.architecture = system["cpu_arch"]?.string
            if let identifier = system["CFBundleIdentifier"]?.string { report.facts.append("bundle identifier: \(identifier)") }
            if let version = system["CFBundleShortVersionString"]?.string {
                report.appVersion = version + (system["CFBundleVersion"]?.string.map { " (\($0))" } ?? "")
                report.facts.append("app version: \(version)" + (system["CFBundleVersion"]?.string.map { " (\($0))" } ?? ""))
            }
            if let machine = system["machine"]?.string { report.facts.append("device: \(machine)") }
        } else if let other = top["system"] {
            warn("system is a \(other.typeName), not an object")
        }
        if case .dictionary(let header)? = top["report"] {
            if report.process == nil { report.process = header["process_name"]?.string }
            // Seconds since 1970 (KSCrash 1.x: also an ISO 8601 string; 2.x: microseconds).
            switch header["timestamp"] {
            case .string(let text)?: report.timestamp = text
            case let value?: report.timestamp = value.integer?.int64Value.map { "\($0)" }
            case nil: break
            }
        }

        switch top["binary_images"] {
        case .array(let images)?:
            for case let (position, fields?) in objects(in: images, limit: CrashReportLimits.maxBinaryImages, cut: "\(jsonCount(images)) binary_images",
                                                        element: { "binary_images[\($0)]" }, warn: warn) {
                let path = fields["name"]?.string
                var image = CrashBinaryImage(name: path.map(lastComponent) ?? "???")
                image.path = path
                image.uuid = fields["uuid"]?.string.map(compactIdentifier)
                image.loadAddress = fields["image_addr"]?.integer?.uint64Value
                if let base = image.loadAddress, let size = fields["image_size"]?.integer?.uint64Value, size > 0 {
                    let (end, overflow) = base.addingReportingOverflow(size - 1)
                    image.endAddress = overflow ? nil : end
                }
                if let type = fields["cpu_type"]?.integer?.int64Value {
                    image.arch = architecture(type, subtype: fields["cpu_subtype"]?.integer?.int64Value)
                }
                if image.loadAddress == nil { warn("binary_images[\(position)] has no image_addr") }
                report.binaryImages.append(image)
            }
        case nil: warn("no binary_images: frames cannot be tied to images")
        case let other?: warn("binary_images is a \(other.typeName), not an array")
        }

        if case .dictionary(let error)? = crash["error"] {
            report.exception = exception(error, applicationSpecific: &report.applicationSpecificInformation)
        } else if let other = crash["error"] {
            warn("crash.error is a \(other.typeName), not an object")
        }
        if let diagnosis = crash["diagnosis"]?.string { report.applicationSpecificInformation.append(diagnosis) }

        let map = BinaryImageMap(report.binaryImages)
        switch crash["threads"] {
        case .array(let threads)?:
            for case let (position, fields?) in objects(in: threads, limit: CrashReportLimits.maxThreads, cut: "\(jsonCount(threads)) threads",
                                                        element: { "crash.threads[\($0)]" }, warn: warn) {
                let index = fields["index"]?.integer?.int64Value.flatMap { $0 >= 0 && $0 < Int64(CrashReportLimits.maxThreads) ? Int($0) : nil } ?? position
                var thread = CrashThread(index: index, name: fields["name"]?.string ?? fields["dispatch_queue"]?.string,
                                         crashed: fields["crashed"]?.bool ?? false)
                if case .dictionary(let backtrace)? = fields["backtrace"], case .array(let contents)? = backtrace["contents"] {
                    thread.frames = frames(contents, of: "thread \(index)", map: map, images: report.binaryImages, warn: warn)
                } else if let other = fields["backtrace"] {
                    if case .dictionary = other { warn("thread \(index): backtrace has no contents array") } else { warn("thread \(index): backtrace is a \(other.typeName), not an object") }
                }
                if case .dictionary(let registers)? = fields["registers"], case .dictionary(let basic)? = registers["basic"] {
                    for (name, value) in basic.prefix(CrashReportLimits.maxRegisters) {
                        if let number = value.integer?.uint64Value { thread.registers.append(CrashRegister(name: name, value: number)) }
                    }
                }
                if thread.crashed, report.crashedThread == nil { report.crashedThread = thread.index }
                report.threads.append(thread)
            }
        case nil: warn("no crash.threads")
        case let other?: warn("crash.threads is a \(other.typeName), not an array")
        }
        return CrashReportDocument(report: report, warnings: warnings)
    }

    /// `crash.error`: `type` (`mach`, `signal`, `nsexception`, `cpp_exception`, …), `mach`
    /// (`exception`, `exception_name`, `code`, `code_name`, `subcode`), `signal` (`signal`,
    /// `name`), `address`, `reason`, and the exception's `name` and `reason`.
    private static func exception(_ error: OrderedDictionaryView, applicationSpecific: inout [String]) -> CrashException {
        var exception = CrashException()
        if case .dictionary(let mach)? = error["mach"] {
            exception.type = mach["exception_name"]?.string
                ?? mach["exception"]?.integer?.int64Value.map { MachExceptionNames.exceptionType($0) ?? "exception type \($0)" }
            let code = mach["code"]?.integer?.uint64Value
            let subcode = mach["subcode"]?.integer?.uint64Value
            if let code {
                exception.codes = [code, subcode].compactMap { $0 }.map(paddedHex).joined(separator: ", ")
            }
            if let name = mach["code_name"]?.string { exception.reason = name }
        }
        if case .dictionary(let signal)? = error["signal"] {
            exception.signal = signal["name"]?.string
                ?? signal["signal"]?.integer?.int64Value.map { MachExceptionNames.darwinSignal($0) ?? "signal \($0)" }
        }
        exception.faultAddress = error["address"]?.integer?.uint64Value
        if exception.type == nil, exception.signal == nil { exception.type = error["type"]?.string }
        // An uncaught exception: its name and reason, as Apple's reports write them.
        for key in ["nsexception", "cpp_exception"] {
            guard case .dictionary(let thrown)? = error[key] else { continue }
            let name = thrown["name"]?.string ?? (key == "cpp_exception" ? "C++ exception" : "NSException")
            let reason = thrown["reason"]?.string ?? error["reason"]?.string
            applicationSpecific.append("*** Terminating app due to uncaught exception '\(name)'" + (reason.map { ", reason: '\($0)'" } ?? ""))
        }
        if applicationSpecific.isEmpty, exception.reason == nil, let reason = error["reason"]?.string { exception.reason = reason }
        return exception
    }

    /// `backtrace.contents`: `instruction_addr`, `object_addr`, `object_name`, `symbol_addr`,
    /// `symbol_name`. Every frame but the first holds a return address.
    private static func frames(_ contents: [PlistValue], of owner: String, map: BinaryImageMap, images: [CrashBinaryImage],
                               warn: (String) -> Void) -> [CrashFrame] {
        var result: [CrashFrame] = []
        for case let (position, fields?) in objects(in: contents, limit: CrashReportLimits.maxFramesPerThread,
                                                    cut: "\(owner) has \(jsonCount(contents)) frames", element: { "\(owner) frame \($0)" }, warn: warn) {
            var frame = CrashFrame(index: position)
            frame.isReturnAddress = position > 0
            frame.address = fields["instruction_addr"]?.integer?.uint64Value
            if let index = map.image(of: frame) {
                frame.imageName = images[index].name
                if let base = images[index].loadAddress, let address = frame.address { frame.imageOffset = address &- base }
            } else {
                frame.imageName = fields["object_name"]?.string.map(lastComponent)
                if let address = frame.address, let base = fields["object_addr"]?.integer?.uint64Value, address >= base {
                    frame.imageOffset = address - base
                }
            }
            if let symbol = fields["symbol_name"]?.string {
                frame.symbol = symbol
                if let address = frame.address, let start = fields["symbol_addr"]?.integer?.uint64Value, address >= start {
                    frame.symbolOffset = address - start
                }
            }
            result.append(frame)
        }
        return result
    }

    /// `cpu_type` / `cpu_subtype` (`<mach/machine.h>`) as `.ips` names architectures.
    private static func architecture(_ type: Int64, subtype: Int64?) -> String? {
        switch type {
        case 0x0100_000C: (subtype.map { $0 & 0xFF } == 2) ? "arm64e" : "arm64"
        case 0x0200_000C: "arm64_32"
        case 0x0100_0007: "x86_64"
        case 12: "arm"
        case 7: "i386"
        default: nil
        }
    }

    /// `0x0000000000000001`, as Apple's `Exception Codes` line writes codes.
    private static func paddedHex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return "0x" + String(repeating: "0", count: max(0, 16 - digits.count)) + digits
    }

    private static func lastComponent(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }
}
