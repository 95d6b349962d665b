import DevKitTestSupport
@testable import ElfUtils
import Foundation
import Testing

/// Issue 18 (cold index builds): `LineProgram` reads line tables itself and must give what
/// libdw's `dwarf_getsrcfiles` and `dwarf_getsrclines` give — file names, directory 0, rows
/// in libdw's order — on every unit of images compiled at test time by clang (DWARF 3, 4, 5)
/// and GCC (DWARF 4, 5): relative sources under a compilation directory, a header in another
/// directory, functions in sections of their own (several sequences).
@Suite struct LineProgramTests {
    final class Owner {}

    static let main = """
        #include "helper.h"
        __attribute__((noinline, section(".text.late"))) int late(int x) { return helper(x) * 3; }
        __attribute__((noinline)) int early(const int *v, int n) {
            int t = 0;
            for (int i = 0; i < n; i++) t += helper(v[i]) + late(i);
            return t;
        }
        """
    static let helper = """
        static inline int helper(int x) {
            if (x > 10) return x - 1;
            return x * x + 2;
        }
        """
    static let other = """
        #include "helper.h"
        int other(int x) { return helper(x) + helper(x + 1); }
        """

    /// The image built by `compiler` with `flags` from a directory of its own (relative paths,
    /// so file names are joined with the compilation directory); nil if the compiler is missing.
    func image(_ compiler: String, _ flags: [String]) throws -> [UInt8]? {
        guard let tool = TestProcess.find(compiler) else { print("skipped: \(compiler) not installed"); return nil }
        let directory = try TestProcess.temporaryDirectory("devkit-lineprogram")
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("include"), withIntermediateDirectories: true)
        try Self.main.write(to: directory.appendingPathComponent("main.c"), atomically: true, encoding: .utf8)
        try Self.other.write(to: directory.appendingPathComponent("other.c"), atomically: true, encoding: .utf8)
        try Self.helper.write(to: directory.appendingPathComponent("include/helper.h"), atomically: true, encoding: .utf8)
        let result = try TestProcess.run(tool, ["-O2", "-g", "-shared", "-fPIC", "-nostdlib", "-ffunction-sections", "-Iinclude"] + flags
                                               + ["main.c", "other.c", "-o", "libprogram.so"], cwd: directory)
        guard result.status == 0 else { Issue.record("\(compiler) failed: \(result.stderr)"); return nil }
        return [UInt8](try Data(contentsOf: directory.appendingPathComponent("libprogram.so")))
    }

    /// For each unit: LineProgram's table and libdw's (files, directory 0, rows as libdw hands them out).
    func tables(_ bytes: [UInt8]) throws -> [(ours: LineProgram.Table?, libdw: LineProgram.Table)] {
        try bytes.withUnsafeBytes { image in
            let handle = try DWHandle.open(image: image, owner: Owner())
            let debugLine = try #require(handle.sectionBytes(named: ".debug_line", in: image))
            let sections = LineProgram.Sections(debugLine: debugLine, debugLineString: handle.sectionBytes(named: ".debug_line_str", in: image),
                                                debugString: handle.sectionBytes(named: ".debug_str", in: image))
            var result: [(LineProgram.Table?, LineProgram.Table)] = []
            var cursor = DWHandle.UnitCursor()
            while let (die, _, addressSize) = try handle.nextUnit(&cursor) {
                var cu = die
                guard handle.tag(&cu) == DWHandle.Tag.compileUnit, let offset = handle.statementList(of: &cu) else { continue }
                let directory = handle.string(DWHandle.Attribute.compilationDirectory, of: &cu)
                let ours = LineProgram.read(sections, at: offset, compilationDirectory: directory.map { Array($0.utf8) }, addressSize: addressSize)
                let files = handle.files(of: &cu)
                let lines = try handle.lines(of: &cu)
                let rows = (0..<lines.count).compactMap { handle.row($0, of: lines) }.map { row in
                    DWARFLineRow(address: row.address, file: Int32(clamping: row.file), line: UInt32(clamping: row.line),
                                 column: UInt32(clamping: row.column), isEndSequence: row.endSequence)
                }
                result.append((ours, LineProgram.Table(files: files.names, firstDirectory: files.firstDirectory, rows: rows)))
            }
            return result
        }
    }

    @Test(arguments: [("clang", ["-gdwarf-3"]), ("clang", ["-gdwarf-4"]), ("clang", ["-gdwarf-5"]),
                      ("gcc", ["-gdwarf-4"]), ("gcc", ["-gdwarf-5"])])
    func sameAsLibdw(compiler: String, flags: [String]) throws {
        guard let bytes = try image(compiler, flags) else { return }
        let units = try tables(bytes)
        #expect(units.count == 2)
        for (ours, libdw) in units {
            let table = try #require(ours, "LineProgram left a plain table to libdw")
            #expect(table.files == libdw.files)
            #expect(table.firstDirectory == libdw.firstDirectory)
            #expect(table.rows == libdw.rows)
            #expect(libdw.rows.count > 4)
            // The joined names: the header under its directory.
            #expect(table.files.contains { $0.hasSuffix("include/helper.h") }, "\(table.files)")
        }
        // Functions in sections of their own: a unit with several sequences.
        #expect(units.contains { unit in zip(unit.libdw.rows, unit.libdw.rows.dropFirst()).contains { $0.isEndSequence && !$1.isEndSequence } })
    }

    @Test func damagedTablesAreLeftToLibdw() throws {
        guard let bytes = try image("clang", ["-gdwarf-5"]) else { return }
        try bytes.withUnsafeBytes { image in
            let handle = try DWHandle.open(image: image, owner: Owner())
            let debugLine = try #require(handle.sectionBytes(named: ".debug_line", in: image))
            let sections = LineProgram.Sections(debugLine: debugLine, debugLineString: handle.sectionBytes(named: ".debug_line_str", in: image),
                                                debugString: handle.sectionBytes(named: ".debug_str", in: image))
            #expect(LineProgram.read(sections, at: 0, compilationDirectory: nil, addressSize: 8) != nil)
            // Past the section, a wrong address size, a table cut short: nil, never a trap.
            #expect(LineProgram.read(sections, at: UInt64(debugLine.count), compilationDirectory: nil, addressSize: 8) == nil)
            #expect(LineProgram.read(sections, at: 0, compilationDirectory: nil, addressSize: 4) == nil)
            for cut in [1, 5, 12, 30, debugLine.count / 2] where cut < debugLine.count {
                let short = LineProgram.Sections(debugLine: UnsafeRawBufferPointer(rebasing: debugLine[0..<cut]),
                                                 debugLineString: sections.debugLineString, debugString: sections.debugString)
                #expect(LineProgram.read(short, at: 0, compilationDirectory: nil, addressSize: 8) == nil, "cut at \(cut)")
            }
        }
    }
}
