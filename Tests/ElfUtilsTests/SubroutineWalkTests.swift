import DevKitTestSupport
@testable import ElfUtils
import Foundation
import Testing

/// Issue 18 (cold index builds): the DIE walk reads a function's attributes in one pass
/// (`DWHandle.SubroutineAttributes`) and does not enter a C unit's structures. A C unit with
/// structures before, between and after its functions, compiled at test time in DWARF 3
/// (`DW_AT_high_pc` an address), 4 and 5 (an offset from `DW_AT_low_pc`): every function and
/// inlined call is found with its name, ranges and call site, the same in every version.
@Suite struct SubroutineWalkTests {
    final class Owner {}

    static let source = """
        struct inner { int a; short b[4]; };
        struct outer { struct inner first; struct inner *next; union { long l; double d; } value; };
        static inline int scaled(const struct outer *o, int k) {
            return o->first.a * k + o->first.b[k & 3];
        }
        struct between { char tag; struct outer body; };
        __attribute__((noinline)) int total(const struct outer *items, int n) {
            int sum = 0;
            for (int i = 0; i < n; i++) sum += scaled(&items[i], i);
            return sum;
        }
        __attribute__((noinline)) long tagged(const struct between *b) { return b->tag + b->body.value.l; }
        struct after { struct between b; int tail; };
        long use_after(const struct after *a) { return tagged(&a->b) + a->tail; }
        """

    /// The unit's functions and inlined calls: name, depth, ranges, call file (its name's last
    /// component), line and column. Nil without clang.
    func subroutines(dwarfVersion: Int) throws -> [String]? {
        guard let clang = TestProcess.find("clang") else { print("skipped: clang not installed"); return nil }
        let directory = try TestProcess.temporaryDirectory("devkit-elfutils")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("walk.c").path
        try Self.source.write(toFile: path, atomically: true, encoding: .utf8)
        let object = directory.appendingPathComponent("libwalk.so").path
        let result = try TestProcess.run(clang, ["-O2", "-g", "-gdwarf-\(dwarfVersion)", "-std=c11", "-shared", "-fPIC", "-nostdlib",
                                                 path, "-o", object])
        guard result.status == 0 else { Issue.record("clang failed: \(result.stderr)"); return nil }
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: object)))
        var units: [DWARFUnit] = []
        try bytes.withUnsafeBytes { raw in
            let reader = try DWARFReader(image: raw, owner: Owner())
            try reader.forEachUnit { units.append($0) }
        }
        let unit = try #require(units.first { $0.name?.hasSuffix("walk.c") == true })
        #expect(unit.version == dwarfVersion)
        return unit.subroutines.map { subroutine in
            let ranges = unit.ranges[subroutine.ranges].map { "\(String($0.start, radix: 16))-\(String($0.end, radix: 16))" }
            let callFile = subroutine.callFile.map { unit.files.indices.contains($0) ? String(unit.files[$0].split(separator: "/").last ?? "") : "?" }
            return "\(subroutine.name ?? "-") depth \(subroutine.depth) \(ranges) call \(callFile ?? "-"):\(subroutine.callLine):\(subroutine.callColumn)"
        }
    }

    @Test func functionsPastStructuresInEveryVersion() throws {
        guard let version3 = try subroutines(dwarfVersion: 3), let version4 = try subroutines(dwarfVersion: 4),
              let version5 = try subroutines(dwarfVersion: 5) else { return }
        for name in ["total", "tagged", "use_after"] {
            #expect(version5.contains { $0.hasPrefix("\(name) depth 0 [") }, "\(name) missing: \(version5)")
        }
        // The inlined call: line 9, column 40 (`scaled(` in `sum += scaled(&items[i], i)`).
        #expect(version5.contains { $0.hasPrefix("scaled depth 1 [") && $0.hasSuffix("call walk.c:9:40") }, "\(version5)")
        #expect(version5.allSatisfy { !$0.contains("[]") }, "a subroutine without ranges: \(version5)")
        // The same code in every version: DWARF 3's addresses, 4's and 5's offsets give the same ranges.
        #expect(version3 == version4)
        #expect(version4 == version5)
    }

    @Test func languagesWithoutFunctionsInTypes() {
        #expect(DWARFReader.isC(0x0001))  // C89
        #expect(DWARFReader.isC(0x000c))  // C99
        #expect(DWARFReader.isC(0x001d))  // C11
        #expect(DWARFReader.isC(0x002c))  // C17
        #expect(!DWARFReader.isC(0x0004))  // C++
        #expect(!DWARFReader.isC(0x0021))  // C++14
        #expect(!DWARFReader.isC(0x001e))  // Swift
        #expect(!DWARFReader.isC(nil))
    }
}
