import BinaryReading
public import CrashReport

/// Reads ELF core files (Linux, x86_64 and aarch64) into devkit's crash model through
/// elfutils' libdwfl: the same unwinder `eu-stack --core` uses, so the frames match it.
public enum CoreDumpReader {
    /// Reads an ELF core file: the process (name, pid from `NT_PRPSINFO`), the signal and fault
    /// address (`NT_SIGINFO` / `NT_PRSTATUS`), every thread (named `tid N`; the one that took
    /// the signal marked crashed and set as `crashedThread`) with its registers and its frames
    /// unwound by libdwfl (frame 0 a PC, later ones return addresses unless libdwfl says the
    /// frame is an activation, e.g. a signal frame), and every module as a binary image (name,
    /// file, build-id, start and end). Each frame names its image and its offset from the
    /// image's start.
    ///
    /// - Parameters:
    ///   - corePath: the core file.
    ///   - executable: the program that crashed, when the core's record of it is not where
    ///     the program is now (`dwfl_core_file_report`'s `executable`).
    ///   - searchPaths: directories to look in for modules (by base name, taken only when the
    ///     build-id matches; and `.build-id/xx/yyyy` layouts) and their separate debug info.
    /// - Returns: the report, with warnings for what could not be read (an unwind that
    ///   stopped early, threads or modules beyond the caps, unreadable notes).
    /// - Throws: `CoreDumpError` when the file is unreadable, not ELF, not a core, or too
    ///   damaged for libdwfl to report its modules and threads.
    public static func read(corePath: String, executable: String?, searchPaths: [String]) throws(CoreDumpError) -> CrashReportDocument {
        let limits = CoreWalkLimits(
            maxThreads: CrashReportLimits.maxThreads,
            maxFramesPerThread: CrashReportLimits.maxFramesPerThread,
            maxModules: CrashReportLimits.maxBinaryImages,
            maxNotes: CrashReportLimits.maxThreads * 4 + 16,
            maxNoteDescriptor: 4096
        )
        let session = try DwflCoreSession.open(corePath: corePath, executable: executable, searchPaths: searchPaths)
        var warnings: [CrashDiagnostic] = []

        let (notes, skippedSegments) = session.notes(
            types: [CoreNoteType.processStatus, CoreNoteType.processInfo, CoreNoteType.signalInfo], limits: limits)
        if skippedSegments > 0 {
            warnings.append(CrashDiagnostic(line: nil, message: "\(skippedSegments) note segment(s) unreadable: registers or signal details may be missing"))
        }
        let (modules, modulesTruncated) = session.modules(limits: limits)
        if modulesTruncated {
            warnings.append(CrashDiagnostic(line: nil, message: "more than \(limits.maxModules) modules: the rest are not listed"))
        }
        let (stacks, threadsTruncated, walkError) = try session.threads(limits: limits)
        if let walkError {
            warnings.append(CrashDiagnostic(line: nil, message: "the thread list stopped after \(stacks.count) thread(s): \(walkError)"))
        }
        if threadsTruncated {
            warnings.append(CrashDiagnostic(line: nil, message: "more than \(limits.maxThreads) threads: the rest are not listed"))
        }

        var report = CrashReport(format: .coreDump)
        let facts = CoreFacts(notes: notes, machine: session.machine)
        report.process = facts.processInfo?.name
        report.processID = facts.processInfo?.pid ?? session.pid
        report.architecture = session.machine.name
        report.exception = facts.exception
        report.binaryImages = modules.map(\.binaryImage)
        report.path = executable ?? facts.processInfo.flatMap { info in
            report.binaryImages.first { $0.name.hasPrefix(info.name) && !info.name.isEmpty }?.path
        }

        let images = BinaryImageMap(report.binaryImages)
        for (index, stack) in stacks.enumerated() {
            var thread = CrashThread(index: index, name: "tid \(stack.tid)", crashed: stack.tid == facts.signalledThread)
            thread.frames = stack.frames.enumerated().map { position, record in
                var frame = CrashFrame(index: position)
                frame.address = record.pc
                frame.isReturnAddress = !record.isActivation
                if let module = images.image(of: frame), let base = report.binaryImages[module].loadAddress {
                    frame.imageName = report.binaryImages[module].name
                    frame.imageOffset = record.pc &- base
                }
                return frame
            }
            thread.registers = facts.registers(of: stack.tid).map { CrashRegister(name: $0.name, value: $0.value) }
            if thread.crashed { report.crashedThread = index }
            if let reason = stack.stopReason {
                warnings.append(CrashDiagnostic(line: nil, message: "tid \(stack.tid): unwinding stopped after \(stack.frames.count) frame(s): \(reason)"))
            }
            report.threads.append(thread)
        }
        return CrashReportDocument(report: report, warnings: warnings)
    }
}
