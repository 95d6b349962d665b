import OrderedCollections
import PropertyList

/// Reads Apple's `.ips` crash report: a one-line JSON header (`bug_type`, `os_version`, …)
/// then a JSON body (`threads`, `usedImages`, `exception`, …).
///
/// JSON goes through PropertyList's reader, which keeps integers up to `UInt64.max` exactly:
/// `.ips` writes 64-bit addresses and registers as plain decimals, often above 2^63.
enum IPSReader {
    static func read(_ bytes: ArraySlice<UInt8>) throws(CrashReportError) -> CrashReportDocument {
        guard let newline = bytes.firstIndex(of: 0x0A) else {
            throw CrashReportError(line: 1, message: "an .ips report is a JSON header line followed by a JSON body; found no second line")
        }
        var warnings: [CrashDiagnostic] = []
        func warn(_ message: String) { warnings.append(CrashDiagnostic(line: 2, message: message)) }
        let header = try readJSON(bytes[bytes.startIndex..<newline], firstLine: 1, what: "header") { _ in }
        let body = try readJSON(bytes[(newline + 1)...], firstLine: 2, what: "body", warn: warn)
        guard case .dictionary(let headerFields) = header else {
            throw CrashReportError(line: 1, message: "the header is a JSON \(header.typeName), not an object")
        }
        guard case .dictionary(let fields) = body else {
            throw CrashReportError(line: 2, message: "the body is a JSON \(body.typeName), not an object")
        }

        var report = CrashReport(format: .ips)
        report.process = fields["procName"]?.string ?? headerFields["app_name"]?.string ?? headerFields["name"]?.string
        report.processID = fields["pid"]?.integer?.int64Value
        report.path = fields["procPath"]?.string
        if case .dictionary(let os)? = fields["osVersion"], let train = os["train"]?.string {
            let build = os["build"]?.string ?? ""
            report.osVersion = build.isEmpty ? train : "\(train) (\(build))"
        } else {
            report.osVersion = headerFields["os_version"]?.string ?? fields["build"]?.string
        }
        report.architecture = fields["cpuType"]?.string
        report.timestamp = nonEmpty(headerFields["timestamp"]?.string) ?? nonEmpty(fields["captureTime"]?.string)
        if let version = nonEmpty(headerFields["app_version"]?.string) {
            report.appVersion = version + (nonEmpty(headerFields["build_version"]?.string).map { " (\($0))" } ?? "")
        } else if case .dictionary(let bundle)? = fields["bundleInfo"], let version = nonEmpty(bundle["CFBundleShortVersionString"]?.string) {
            report.appVersion = version + (nonEmpty(bundle["CFBundleVersion"]?.string).map { " (\($0))" } ?? "")
        }
        if case .dictionary(let exceptionFields)? = fields["exception"] {
            var exception = CrashException()
            exception.type = exceptionFields["type"]?.string
            exception.signal = exceptionFields["signal"]?.string
            exception.codes = exceptionFields["codes"]?.string
            exception.reason = exceptionFields["subtype"]?.string ?? exceptionFields["message"]?.string
            // The fault address: `subtype` "KERN_INVALID_ADDRESS at 0x…", else `vmRegionInfo`
            // "0x… is in …" / "0 is not in any region", else EXC_BAD_ACCESS's second code.
            exception.faultAddress = exceptionFields["subtype"]?.string.flatMap { FaultAddress.afterAt($0) }
            if exception.faultAddress == nil, let region = (fields["vmRegionInfo"] ?? fields["vmregioninfo"])?.string {
                exception.faultAddress = FaultAddress.fromRegionInfo(region.prefix(200))
            }
            if exception.faultAddress == nil, exception.type == "EXC_BAD_ACCESS" {
                if let codes = exceptionFields["codes"]?.string {
                    exception.faultAddress = FaultAddress.fromBadAccessCodes(codes)
                } else if case .array(let raw)? = exceptionFields["rawCodes"], raw.count == 2 {
                    exception.faultAddress = raw[1].integer?.uint64Value
                }
            }
            report.exception = exception
        }
        if case .dictionary(let asi)? = fields["asi"] {
            // `{"CoreFoundation": ["*** Terminating app …"], "dyld": ["dyld2 mode"]}`: the lines
            // in order, without the owning image (as the text report prints them).
            for (owner, value) in asi {
                let lines: [PlistValue]
                switch value {
                case .array(let array): lines = array
                case .string: lines = [value]
                default:
                    warn("asi[\(owner.prefix(40))] is a \(value.typeName), not an array of strings")
                    continue
                }
                for line in lines {
                    guard let text = line.string else { continue }
                    guard report.applicationSpecificInformation.count < CrashReportLimits.maxInformationLines else { break }
                    report.applicationSpecificInformation.append(text)
                }
            }
        } else if fields["asi"] != nil {
            warn("asi is not an object")
        }
        if case .dictionary(let termination)? = fields["termination"] {
            // `{"namespace": "FRONTBOARD", "code": 2343432205, "indicator": "…", "reasons": [...]}`,
            // written as the text report's `Namespace FRONTBOARD, Code 0x8badf00d …`.
            var parts: [String] = []
            if let namespace = termination["namespace"]?.string { parts.append("Namespace \(namespace)") }
            if let code = termination["code"]?.integer { parts.append("Code " + (code.isNegative ? "-\(code.magnitude)" : "0x" + String(code.magnitude, radix: 16))) }
            var text = parts.joined(separator: ", ")
            if let indicator = termination["indicator"]?.string { text += (text.isEmpty ? "" : " ") + indicator.prefix(200) }
            if case .array(let reasons)? = termination["reasons"] {
                for reason in reasons.prefix(4) { if let line = reason.string { text += (text.isEmpty ? "" : " ") + line.prefix(300) } }
            }
            if !text.isEmpty { report.terminationReason = text }
        }
        if let faulting = fields["faultingThread"]?.integer?.int64Value, faulting >= 0, faulting < Int64(CrashReportLimits.maxThreads) {
            report.crashedThread = Int(faulting)
        }

        if case .array(let images)? = fields["usedImages"] {
            for (_, imageFields) in objects(in: images, limit: CrashReportLimits.maxBinaryImages, cut: "\(jsonCount(images)) images",
                                            element: { "usedImages[\($0)]" }, warn: warn) {
                // A damaged entry keeps its place: frames name images by index.
                guard let imageFields else {
                    report.binaryImages.append(CrashBinaryImage(name: "???"))
                    continue
                }
                // Unnamed images (`"source": "A"`, absolute) keep their index with a placeholder name.
                var image = CrashBinaryImage(name: imageFields["name"]?.string ?? "???")
                image.uuid = imageFields["uuid"]?.string.map(compactIdentifier)
                image.loadAddress = imageFields["base"]?.integer?.uint64Value
                if let base = image.loadAddress, let size = imageFields["size"]?.integer?.uint64Value, size > 0 {
                    let (end, overflow) = base.addingReportingOverflow(size - 1)
                    image.endAddress = overflow ? nil : end
                }
                image.arch = imageFields["arch"]?.string
                image.path = imageFields["path"]?.string
                report.binaryImages.append(image)
            }
        } else if fields["usedImages"] != nil {
            warn("usedImages is not an array")
        }

        if case .array(let threads)? = fields["threads"] {
            for case let (index, threadFields?) in objects(in: threads, limit: CrashReportLimits.maxThreads, cut: "\(jsonCount(threads)) threads",
                                                           element: { "threads[\($0)]" }, warn: warn) {
                report.threads.append(thread(index: index, threadFields, images: report.binaryImages, warn: warn))
            }
        } else if fields["threads"] != nil {
            warn("threads is not an array")
        } else {
            let bugType = headerFields["bug_type"]?.string.map { " (bug_type \($0))" } ?? ""
            warn("no threads: not a crash report\(bugType)")
        }
        switch fields["lastExceptionBacktrace"] {
        case .array(let frames)?:
            report.lastExceptionBacktrace = Self.frames(frames, of: "lastExceptionBacktrace", images: report.binaryImages, warn: warn)
        case nil: break
        case let other?: warn("lastExceptionBacktrace is a \(other.typeName), not an array")
        }
        if report.crashedThread == nil { report.crashedThread = report.threads.first(where: \.crashed)?.index }
        if let crashed = report.crashedThread, let position = report.threads.firstIndex(where: { $0.index == crashed }) {
            report.threads[position].crashed = true
        }
        return CrashReportDocument(report: report, warnings: warnings)
    }

    private static func thread(index: Int, _ fields: OrderedDictionaryView, images: [CrashBinaryImage], warn: (String) -> Void) -> CrashThread {
        var thread = CrashThread(index: index, name: fields["name"]?.string ?? fields["queue"]?.string,
                                 crashed: fields["triggered"]?.bool ?? false)
        if case .array(let frames)? = fields["frames"] {
            thread.frames = Self.frames(frames, of: "thread \(index)", images: images, warn: warn)
        }
        if case .dictionary(let state)? = fields["threadState"] {
            thread.registers = registers(state)
        }
        return thread
    }

    /// A thread's `frames` or the `lastExceptionBacktrace`: `{"imageIndex": 0, "imageOffset": 16,
    /// "symbol": "…", "symbolLocation": 8}` each. Every frame but the first holds a return address.
    private static func frames(_ frames: [PlistValue], of owner: String, images: [CrashBinaryImage], warn: (String) -> Void) -> [CrashFrame] {
        var result: [CrashFrame] = []
        for case let (position, frameFields?) in objects(in: frames, limit: CrashReportLimits.maxFramesPerThread,
                                                         cut: "\(owner) has \(jsonCount(frames)) frames", element: { "\(owner) frame \($0)" }, warn: warn) {
            var frame = CrashFrame(index: position)
            frame.isReturnAddress = position > 0
            frame.imageOffset = frameFields["imageOffset"]?.integer?.uint64Value
            frame.symbol = frameFields["symbol"]?.string
            frame.symbolOffset = frameFields["symbolLocation"]?.integer?.uint64Value
            if let imageIndex = frameFields["imageIndex"]?.integer?.int64Value {
                if imageIndex >= 0, imageIndex < Int64(images.count) {
                    let image = images[Int(imageIndex)]
                    frame.imageName = image.name
                    if let base = image.loadAddress, let offset = frame.imageOffset {
                        let (address, overflow) = base.addingReportingOverflow(offset)
                        frame.address = overflow ? nil : address
                    }
                } else {
                    warn("\(owner) frame \(position): imageIndex \(imageIndex) is not an image (\(images.count) listed)")
                }
            }
            result.append(frame)
        }
        return result
    }

    /// `{"pc": {"value": N}, "x": [{"value": N}, …], "flavor": "…"}` → `pc`, `x0`, `x1`, …
    private static func registers(_ state: OrderedDictionaryView) -> [CrashRegister] {
        var registers: [CrashRegister] = []
        for (name, value) in state {
            guard registers.count < CrashReportLimits.maxRegisters else { break }
            switch value {
            case .dictionary(let register):
                if let number = register["value"]?.integer?.uint64Value {
                    registers.append(CrashRegister(name: name, value: number))
                }
            case .array(let bank):
                for (position, element) in bank.prefix(CrashReportLimits.maxRegisters).enumerated() {
                    if case .dictionary(let register) = element, let number = register["value"]?.integer?.uint64Value {
                        registers.append(CrashRegister(name: "\(name)\(position)", value: number))
                    }
                }
            default: continue
            }
        }
        return Array(registers.prefix(CrashReportLimits.maxRegisters))
    }

    /// A field's text unless it is empty (`.ips` headers write `"app_version":""` for tools).
    private static func nonEmpty(_ text: String?) -> String? {
        guard let text, !text.isEmpty else { return nil }
        return text
    }
}
