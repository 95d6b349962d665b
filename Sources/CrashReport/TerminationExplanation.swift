/// Plain words for why the system ended the process, from what any format carries: the
/// termination reason's code (`0x8badf00d`, …), `EXC_GUARD` and `EXC_RESOURCE` exception codes,
/// and jetsam (memory-pressure) terminations.
///
/// Sources: Apple's Xcode documentation article "EXC_GUARD" names the file-descriptor guard
/// operations (CLOSE, DUP, NOCLOEXEC, SOCKET_IPC, FILEPORT, MISMATCH, WRITE) and that most
/// guard crashes are `GUARD_TYPE_FD`. The code layouts (guard: type [63:61], flavor [60:32],
/// target [31:0], guard id in the second code; resource: type [63:61], flavor [60:58], then
/// type-specific limits) are xnu's `kern/exc_guard.h` and `kern/exc_resource.h`.
public enum TerminationExplanation {
    /// One line per thing recognised; empty when nothing is.
    public static func lines(for report: CrashReport) -> [String] {
        var lines: [String] = []
        let exception = report.exception
        let texts = [report.terminationReason, exception?.codes, exception?.reason].compactMap { $0 }
        let codes = exception?.codes.map(hexNumbers) ?? []
        switch exception?.type {
        case "EXC_GUARD"?:
            lines.append(guardLine(codes: codes, texts: texts))
        case "EXC_RESOURCE"?:
            lines.append(resourceLine(codes: codes, texts: texts))
        default: break
        }
        lines += knownCodes(of: report).compactMap(magic)
        let lowered = texts.joined(separator: " ").lowercased()
        if lowered.containsBytes("jetsam") || lowered.containsBytes("per-process-limit") || lowered.containsBytes("vm-pageshortage") {
            var line = "jetsam: the system ended the app to free memory"
            if lowered.containsBytes("per-process-limit") {
                line += " because it went over its per-process memory limit (lower the footprint: caches, images, leaks)"
            } else if lowered.containsBytes("vm-pageshortage") {
                line += " under system-wide memory pressure (page shortage); the app's own footprint makes it a likelier target"
            } else {
                line += " under memory pressure or over its per-process limit"
            }
            lines.append(line)
        }
        return lines
    }

    /// The termination codes Apple documents (`0x8badf00d`, `0xdead10cc`, `0xbaadca11`,
    /// `0xc00010ff`) that the report carries, each once, in the order found: in the termination
    /// reason, the exception codes or reason, hex or decimal. `symbolicate --group` puts the
    /// first in the signature (a watchdog kill and a lock held while suspended are both
    /// `EXC_CRASH (SIGKILL)`).
    public static func knownCodes(of report: CrashReport) -> [UInt64] {
        let exception = report.exception
        let texts = [report.terminationReason, exception?.codes, exception?.reason].compactMap { $0 }
        // `.ips` and newer text reports write the code in decimal (`FRONTBOARD 2343432205`).
        let decimal = report.terminationReason.map { reason in
            reason.split(whereSeparator: { !$0.isASCIIDigit }).compactMap { UInt64($0.prefix(20)) }
        } ?? []
        var seen = Set<UInt64>()
        return (texts.flatMap(hexNumbers) + decimal).filter { magic($0) != nil && seen.insert($0).inserted }
    }

    /// The termination codes Apple's crash reports document, spelled as words.
    static func magic(_ code: UInt64) -> String? {
        switch code {
        case 0x8bad_f00d:
            "watchdog (0x8badf00d, \"ate bad food\"): the system killed the app for not answering in time — launch, resume, suspend or a scene update took too long, usually because the main thread was blocked (see thread 0's frames)"
        case 0xdead_10cc:
            "0xdead10cc (\"deadlock\"): the app held a file lock or an SQLite database lock while it was suspended; release such locks (or finish with a background task) before suspension"
        case 0xbaad_ca11:
            "0xbaadca11 (\"bad call\"): the app did not report a CallKit call in time after receiving a PushKit VoIP push"
        case 0xc000_10ff:
            "0xc00010ff (\"cool off\"): the system ended the app because of a thermal event: the device was too hot"
        default: nil
        }
    }

    /// `EXC_GUARD`: code[0] = type [63:61] | flavor [60:32] | target [31:0]; code[1] = guard id.
    static func guardLine(codes: [UInt64], texts: [String]) -> String {
        guard let first = codes.first else {
            let text = texts.first(where: { $0.containsBytes("GUARD_TYPE") }) ?? texts.first ?? ""
            return "guard exception: a guarded resource was misused" + (text.isEmpty ? "" : " (\(text.prefix(120)))")
        }
        let type = first >> 61
        let flavor = (first >> 32) & 0x1FFF_FFFF
        let target = first & 0xFFFF_FFFF
        let identifier = codes.count > 1 ? " (guard id 0x\(String(codes[1], radix: 16)))" : ""
        let fileOperations: [(UInt64, String)] = [(1, "CLOSE"), (2, "DUP"), (4, "NOCLOEXEC"), (8, "SOCKET_IPC"), (16, "FILEPORT"), (32, "MISMATCH"), (64, "WRITE")]
        switch type {
        case 2:
            return "file-descriptor guard: \(names(flavor, fileOperations)) on file descriptor \(target)\(identifier) — the app used a descriptor a system library guards (often the SQLite file under Core Data) through plain file APIs"
        case 0 where flavor != 0:
            // GUARD_TYPE_NONE never comes with a flavor: this is the layout before guard types
            // (iOS 6 reports: `0x0000000100000000` = CLOSE on descriptor 0), when guarded file
            // descriptors were the guards reports showed.
            return "file-descriptor guard (older layout without a guard type): \(names(flavor, fileOperations)) on file descriptor \(target)\(identifier) — the app used a descriptor a system library guards (often the SQLite file under Core Data) through plain file APIs"
        case 1:
            let operations = names(flavor, [(1, "DESTROY"), (2, "MOD_REFS"), (4, "SET_CONTEXT"), (8, "UNGUARDED"), (16, "INCORRECT_GUARD"),
                                            (32, "IMMOVABLE"), (64, "STRICT_REPLY"), (128, "MSG_FILTERED"), (256, "INVALID_RIGHT"),
                                            (512, "INVALID_NAME"), (1024, "INVALID_VALUE"), (2048, "INVALID_ARGUMENT")])
            return "Mach-port guard: \(operations) on port name 0x\(String(target, radix: 16))\(identifier) — a guarded Mach port was used or deallocated wrongly"
        case 3: return "user guard (GUARD_TYPE_USER)\(identifier): a library's own guard fired (flavor 0x\(String(flavor, radix: 16)))"
        case 4: return "vnode guard (GUARD_TYPE_VN): a guarded file was changed (flavor 0x\(String(flavor, radix: 16)))"
        case 5: return "virtual-memory guard (GUARD_TYPE_VIRT_MEMORY): a guarded memory region was changed (flavor 0x\(String(flavor, radix: 16)))"
        default: return "guard exception of type \(type), flavor 0x\(String(flavor, radix: 16)), target \(target)\(identifier)"
        }
    }

    /// `EXC_RESOURCE`: code[0] = type [63:61] | flavor [60:58] | limits; code[1] = what was observed.
    static func resourceLine(codes: [UInt64], texts: [String]) -> String {
        guard let code = codes.first else {
            let text = texts.first(where: { $0.containsBytes("RESOURCE") || $0.containsBytes("limit") }) ?? texts.first ?? ""
            return "resource limit exceeded" + (text.isEmpty ? "" : " (\(text.prefix(120)))")
        }
        let observed = codes.count > 1 ? codes[1] : nil
        let flavor = (code >> 58) & 0x7
        switch code >> 61 {
        case 1:
            let fatal = flavor == 2 ? " (fatal)" : ""
            return "CPU limit\(fatal): more than \(code & 0x7F)% CPU over \((code >> 7) & 0x1FF_FFFF) seconds"
                + (observed.map { " (used \($0 & 0x7F)%)" } ?? "")
        case 2:
            return "WAKEUPS limit: more than \(code & 0xFFF) wakeups per second over \((code >> 20) & 0xF_FFFF) seconds"
                + (observed.map { " (observed \($0 & 0xF_FFFF) per second)" } ?? "")
        case 3:
            return "MEMORY limit: the footprint went over \(code & 0x1FFF) MB" + (flavor == 1 ? " (high watermark)" : "")
        case 4:
            let kind = flavor == 2 ? "logical" : "physical"
            return "IO limit: more than \(code & 0x7FFF) MB of \(kind) writes over \((code >> 15) & 0x1_FFFF) seconds"
                + (observed.map { " (wrote \($0 & 0x7FFF) MB)" } ?? "")
        case 5:
            return "THREADS limit: more than \(code & 0x7FFF) threads"
        case 6:
            return "PORTS limit: the process filled its Mach port space (leaking ports)"
        default:
            return "resource limit of type \(code >> 61), flavor \(flavor)"
        }
    }

    private static func names(_ flavor: UInt64, _ table: [(UInt64, String)]) -> String {
        let known = table.filter { flavor & $0.0 != 0 }.map(\.1)
        return known.isEmpty ? "flavor 0x\(String(flavor, radix: 16))" : known.joined(separator: "|")
    }

    /// Every `0x…` number in `text` (codes, `Code 0x8badf00d`, `code:0x8BADF00D`).
    static func hexNumbers(_ text: String) -> [UInt64] {
        var numbers: [UInt64] = []
        var rest = Substring(text.prefix(4096))
        while let start = rest.firstRange(of: "0x") ?? rest.firstRange(of: "0X") {
            let digits = rest[start.upperBound...].prefix(while: \.isHexDigit)
            if !digits.isEmpty, digits.count <= 16, let value = UInt64(digits, radix: 16) { numbers.append(value) }
            rest = rest[digits.endIndex...]
        }
        return numbers
    }
}
