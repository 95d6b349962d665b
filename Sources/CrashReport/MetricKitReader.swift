import PropertyList

/// Reads MetricKit's JSON as an app gets it: an `MXDiagnosticPayload` (`crashDiagnostics`,
/// `hangDiagnostics`, `cpuExceptionDiagnostics`, `diskWriteExceptionDiagnostics`,
/// `appLaunchDiagnostics` arrays), one diagnostic (`callStackTree` + `diagnosticMetaData`),
/// or a `callStackTree` alone (`MXCallStackTree.jsonRepresentation()`).
///
/// Frame order. Apple's `jsonRepresentation()` page (MetricKit, MXCallStackTree) says a call
/// stack has `threadAttributed` and `callStackRootFrames`, a frame up to six keys (`binaryName`,
/// `binaryUUID`, `address`, `offsetIntoBinaryTextSegment`, `sampleCount`, `subFrames`), and
/// `subFrames` "an array of stack frame dictionaries … many levels of nested stack frames". Its
/// example's root frame is in the app and its one sub-frame in `libdyld.dylib` (`start`): the
/// root is the innermost frame and each `subFrames` level is the caller, going outward. So a
/// chain root → subFrames[0] → … is read as frames 0, 1, …; a frame with several sub-frames
/// (a sampled tree) gives one stack per leaf-to-root path. The same example's `address` minus
/// `offsetIntoBinaryTextSegment` is page-aligned for both images: the offset is from the
/// image's load address, as `.ips`'s `imageOffset`, so images are found by `binaryUUID` and
/// frames looked up by offset exactly as for `.ips`.
enum MetricKitReader {
    /// The payload's arrays, in the order the primary diagnostic is chosen from.
    private static let kinds: [(key: String, label: String)] = [
        ("crashDiagnostics", "crash"), ("hangDiagnostics", "hang"), ("cpuExceptionDiagnostics", "CPU exception"),
        ("diskWriteExceptionDiagnostics", "disk-write exception"), ("appLaunchDiagnostics", "app launch"),
    ]

    /// Nesting accepted: two JSON levels a frame (the frame's object and its `subFrames`
    /// array), so a stack of `maxFramesPerThread` frames (deep recursion) reads whole, plus
    /// the levels around the frames. Deeper is refused by the JSON reader, cleanly.
    static let maxDepth = 2 * CrashReportLimits.maxFramesPerThread + 16

    static func read(_ bytes: ArraySlice<UInt8>) throws(CrashReportError) -> CrashReportDocument {
        var warnings: [CrashDiagnostic] = []
        func warn(_ message: String) { warnings.append(CrashDiagnostic(line: nil, message: message)) }
        var value = try readJSON(bytes, firstLine: 1, what: "MetricKit JSON", column: true, maxDepth: maxDepth, warn: warn)
        // The value may nest thousands of levels: everything that holds a piece of it lives in
        // `document(from:)`, so once that returns, `value` owns it alone and is freed level by
        // level, never by a recursive release.
        let outcome: Result<CrashReportDocument, CrashReportError>
        do { outcome = .success(try document(from: value, warnings: warnings)) } catch { outcome = .failure(error) }
        PlistValue.releaseIteratively(&value)
        return try outcome.get()
    }

    private static func document(from value: PlistValue, warnings: [CrashDiagnostic]) throws(CrashReportError) -> CrashReportDocument {
        var warnings = warnings
        func warn(_ message: String) { warnings.append(CrashDiagnostic(line: nil, message: message)) }
        guard case .dictionary(let top) = value else {
            throw CrashReportError(line: 1, message: "the MetricKit report is a JSON \(value.typeName), not an object")
        }
        var diagnostics: [MetricKitDiagnostic] = []
        for (key, label) in kinds {
            switch top[key] {
            case .array(let list)?:
                for case let (position, fields?) in objects(in: list, limit: CrashReportLimits.maxThreads, cut: "\(jsonCount(list)) \(key)",
                                                            element: { "\(key)[\($0)]" }, warn: warn) {
                    diagnostics.append(MetricKitDiagnostic(label: label, position: position, fields: fields))
                }
            case nil: break
            case let other?: warn("\(key) is a \(other.typeName), not an array")
            }
        }
        if diagnostics.isEmpty {
            if top["callStackTree"] != nil || top["diagnosticMetaData"] != nil {
                diagnostics.append(MetricKitDiagnostic(label: singleKind(top), position: nil, fields: top))
            } else if top["callStacks"] != nil {
                // The tree's own object, without the `callStackTree` key around it.
                diagnostics.append(MetricKitDiagnostic(label: "call stack tree", position: nil, fields: ["callStackTree": value]))
            } else {
                throw CrashReportError(line: 1, message: "no MetricKit diagnostic found (crashDiagnostics, hangDiagnostics, cpuExceptionDiagnostics, diskWriteExceptionDiagnostics, callStackTree)")
            }
        }

        var report = CrashReport(format: .metricKit)
        // A diagnostic carries no time of its own: the payload's window starts at timeStampBegin.
        report.timestamp = top["timeStampBegin"].flatMap(text)
        var builder = MetricKitImageTable()
        // The first diagnostic says what happened: `kinds` puts crashes first. The others'
        // stacks are threads too (named after their diagnostic), so every frame is symbolicated.
        let primary = 0
        let named = diagnostics.count > 1
        diagnosticLoop: for (number, diagnostic) in diagnostics.enumerated() {
            let prefix = named ? diagnostic.position.map { "\(diagnostic.label) \($0) " } ?? "\(diagnostic.label) " : ""
            guard case .dictionary(let tree)? = diagnostic.fields["callStackTree"] else {
                if let other = diagnostic.fields["callStackTree"] { warn("\(prefix)callStackTree is a \(other.typeName), not an object") }
                continue
            }
            guard case .array(let stacks)? = tree["callStacks"] else {
                warn("\(prefix)callStackTree has no callStacks array")
                continue
            }
            for case let (position, stack?) in objects(in: stacks, limit: CrashReportLimits.maxThreads, cut: "\(prefix)callStacks has \(jsonCount(stacks))",
                                                       element: { "\(prefix)callStacks[\($0)]" }, warn: warn) {
                let attributed = stack["threadAttributed"]?.bool ?? false
                guard case .array(let roots)? = stack["callStackRootFrames"] else {
                    if let other = stack["callStackRootFrames"] { warn("\(prefix)callStacks[\(position)].callStackRootFrames is a \(other.typeName), not an array") }
                    continue
                }
                let paths = Self.paths(roots, owner: "\(prefix)callStacks[\(position)]", images: &builder, warn: warn)
                for (pathNumber, frames) in paths.enumerated() {
                    guard report.threads.count < CrashReportLimits.maxThreads else {
                        warn("more than \(CrashReportLimits.maxThreads) call stacks; only the first \(CrashReportLimits.maxThreads) are read")
                        break diagnosticLoop
                    }
                    let name = "\(prefix)call stack \(position)" + (paths.count > 1 ? " path \(pathNumber)" : "")
                    var thread = CrashThread(index: report.threads.count, name: name, crashed: false)
                    thread.frames = frames
                    if attributed, number == primary, report.crashedThread == nil { report.crashedThread = thread.index }
                    report.threads.append(thread)
                }
            }
        }
        report.binaryImages = builder.images
        if let crashed = report.crashedThread { report.threads[crashed].crashed = true }

        let chosen = diagnostics[primary]
        var kind = "MetricKit \(chosen.label)\(chosen.label == "call stack tree" ? "" : " diagnostic")"
        if case .dictionary(let meta)? = chosen.fields["diagnosticMetaData"] {
            read(meta, into: &report)
            // Each kind's own measure (`MXHangDiagnostic.hangDuration`, …), as written.
            let measures = [("hangDuration", "hang duration"), ("totalCPUTime", "total CPU time"), ("totalSampledTime", "sampled time"),
                            ("writesCaused", "writes caused"), ("launchDuration", "launch duration")]
            let said = measures.compactMap { key, name in (meta[key] ?? chosen.fields[key]).flatMap(text).map { "\(name) \($0)" } }
            if !said.isEmpty { kind += " (\(said.joined(separator: ", ")))" }
        } else if let other = chosen.fields["diagnosticMetaData"] {
            warn("diagnosticMetaData is a \(other.typeName), not an object")
        }
        report.kind = kind
        if diagnostics.count > 1 {
            var counts: [(String, Int)] = []
            for diagnostic in diagnostics {
                if let index = counts.firstIndex(where: { $0.0 == diagnostic.label }) { counts[index].1 += 1 } else { counts.append((diagnostic.label, 1)) }
            }
            report.facts.append("payload: " + counts.map { "\($1) \($0)" }.joined(separator: ", ") + " diagnostics; every call stack is a thread")
        }
        return CrashReportDocument(report: report, warnings: warnings)
    }

    /// A lone diagnostic's kind, from what only that kind's metadata has.
    private static func singleKind(_ fields: OrderedDictionaryView) -> String {
        // `{"callStackTree": …}` alone is `MXCallStackTree.jsonRepresentation()`: no diagnostic.
        guard case .dictionary(let meta)? = fields["diagnosticMetaData"] else { return "call stack tree" }
        if meta["hangDuration"] != nil { return "hang" }
        if meta["totalCPUTime"] != nil { return "CPU exception" }
        if meta["writesCaused"] != nil { return "disk-write exception" }
        if meta["launchDuration"] != nil { return "app launch" }
        return "crash"
    }

    /// `diagnosticMetaData`: what the crash was and where it ran.
    private static func read(_ meta: OrderedDictionaryView, into report: inout CrashReport) {
        report.process = meta["bundleIdentifier"].flatMap(text)
        report.processID = meta["pid"]?.integer?.int64Value
        report.osVersion = meta["osVersion"].flatMap(text)
        report.architecture = meta["platformArchitecture"].flatMap(text)
        if let device = meta["deviceType"].flatMap(text) { report.facts.append("device: \(device)") }
        if let version = meta["appVersion"].flatMap(text) {
            report.appVersion = version + (meta["appBuildVersion"].flatMap(text).map { " (\($0))" } ?? "")
            report.facts.append("app version: \(version)" + (meta["appBuildVersion"].flatMap(text).map { " (\($0))" } ?? ""))
        }
        report.terminationReason = meta["terminationReason"].flatMap(text)
        let type = meta["exceptionType"]?.integer?.int64Value
        let code = meta["exceptionCode"]?.integer
        let signal = meta["signal"]?.integer?.int64Value
        let region = meta["virtualMemoryRegionInfo"].flatMap(text)
        guard type != nil || code != nil || signal != nil || region != nil else { return }
        var exception = CrashException()
        exception.type = type.map { MachExceptionNames.exceptionType($0) ?? "exception type \($0)" }
        exception.signal = signal.map { MachExceptionNames.darwinSignal($0) ?? "signal \($0)" }
        if let code { exception.codes = code.isNegative ? "-\(code.magnitude)" : "0x" + String(code.magnitude, radix: 16) }
        if let region {
            exception.reason = String(region.prefix(200))
            exception.faultAddress = FaultAddress.fromRegionInfo(region.prefix(200))
        }
        report.exception = exception
    }

    /// A string, or a number written as one (`hangDuration` is "3.2 sec" in some releases, a number in others).
    private static func text(_ value: PlistValue) -> String? {
        switch value {
        case .string(let string): string
        case .integer(let integer): integer.isNegative ? "-\(integer.magnitude)" : String(integer.magnitude)
        case .real(let real): String(describing: real)
        default: nil
        }
    }

    /// Every leaf-to-root path of the frame trees under `roots`, innermost frame first. Walked
    /// with an explicit stack, not recursion: the nesting comes from the file. The JSON reader
    /// already refuses more than `maxDepth` levels; a path is also cut at
    /// `maxFramesPerThread` frames and the paths at `maxThreads`.
    private static func paths(_ roots: [PlistValue], owner: String, images: inout MetricKitImageTable, warn: (String) -> Void) -> [[CrashFrame]] {
        var result: [[CrashFrame]] = []
        // Depth-first with one shared path: each pending frame records how deep it sits, and
        // the path is cut back to that depth before the frame is added, so a chain of n frames
        // costs n appends, not n copies of a growing path (deep recursion reaches thousands).
        var pending: [(value: PlistValue, depth: Int)] = roots.reversed().map { ($0, 0) }
        var path: [CrashFrame] = []
        var warnedDepth = false
        while let (value, depth) = pending.popLast() {
            guard result.count < CrashReportLimits.maxThreads else {
                warn("\(owner): more than \(CrashReportLimits.maxThreads) frame paths; only the first are read")
                break
            }
            path.removeSubrange(depth...)
            guard case .dictionary(let fields) = value else {
                warn("\(owner) frame \(path.count) is a \(value.typeName), not an object")
                if !path.isEmpty { result.append(path) }
                continue
            }
            path.append(frame(fields, index: path.count, owner: owner, images: &images, warn: warn))
            var children: [PlistValue] = []
            switch fields["subFrames"] {
            case .array(let list)?: children = list
            case nil: break
            case let other?: warn("\(owner) frame \(path.count - 1): subFrames is a \(other.typeName), not an array")
            }
            if children.isEmpty { result.append(path); continue }
            if path.count >= CrashReportLimits.maxFramesPerThread {
                if !warnedDepth { warn("\(owner): a stack deeper than \(CrashReportLimits.maxFramesPerThread) frames is cut") }
                warnedDepth = true
                result.append(path)
                continue
            }
            for child in children.reversed() { pending.append((child, path.count)) }
        }
        return result
    }

    private static func frame(_ fields: OrderedDictionaryView, index: Int, owner: String, images: inout MetricKitImageTable, warn: (String) -> Void) -> CrashFrame {
        var frame = CrashFrame(index: index)
        frame.isReturnAddress = index > 0
        frame.imageOffset = fields["offsetIntoBinaryTextSegment"]?.integer?.uint64Value
        let address = fields["address"]?.integer?.uint64Value
        let uuid = fields["binaryUUID"]?.string
        let name = fields["binaryName"]?.string
        guard uuid != nil || name != nil else {
            frame.address = address
            return frame
        }
        let imageIndex = images.index(uuid: uuid, name: name)
        frame.imageName = images.images[imageIndex].name
        if let address, let offset = frame.imageOffset, address >= offset {
            if let base = images.images[imageIndex].loadAddress {
                if address - offset != base, images.warnedBases.insert(imageIndex).inserted {
                    warn("\(owner) frame \(index): address - offsetIntoBinaryTextSegment is not \(frame.imageName ?? "")'s load address 0x\(String(base, radix: 16)) found earlier; the offset is used")
                }
                frame.address = base &+ offset
            } else {
                images.images[imageIndex].loadAddress = address - offset
                frame.address = address
            }
        } else {
            frame.address = nil
        }
        return frame
    }
}
