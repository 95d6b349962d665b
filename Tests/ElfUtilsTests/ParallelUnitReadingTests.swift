import DevKitTestSupport
import ElfUtils
import Foundation
import Testing

/// Issue 18: `forEachUnit(jobs:)` reads units on several threads, each through its own libdw
/// handle, and must hand over exactly what one thread reads, in the same order; an image
/// with compressed sections (which libelf inflates by rewriting section headers in the shared
/// bytes) is read on one thread. The image: Fixtures/inlined.c and six more small units
/// written here, linked into one shared object at test time.
@Suite struct ParallelUnitReadingTests {
    final class Owner {}

    /// The linked image's bytes (`compressed`: `-gz=zlib`); nil without clang.
    func image(compressed: Bool) throws -> [UInt8]? {
        guard let clang = TestProcess.find("clang") else { print("skipped: clang not installed"); return nil }
        let directory = try TestProcess.temporaryDirectory("devkit-elfutils")
        defer { try? FileManager.default.removeItem(at: directory) }
        var sources = [DWARFReaderTests.source.path]
        for i in 0..<6 {
            let path = directory.appendingPathComponent("unit\(i).c").path
            try """
            static inline int twice\(i)(int x) { return 2 * x + \(i); }
            __attribute__((noinline)) int unit\(i)(const int *v, int n) {
                int t = 0;
                for (int k = 0; k < n; k++) t += twice\(i)(v[k]);
                return t;
            }
            """.write(toFile: path, atomically: true, encoding: .utf8)
            sources.append(path)
        }
        let object = directory.appendingPathComponent("libunits.so").path
        let result = try TestProcess.run(clang, ["-O2", "-g", "-shared", "-fPIC", "-nostdlib"] + (compressed ? ["-gz=zlib"] : [])
                                                 + sources + ["-o", object])
        guard result.status == 0 else { Issue.record("clang failed: \(result.stderr)"); return nil }
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: object)))
    }

    /// What a unit says, in comparable form.
    struct Summary: Equatable {
        var name: String?
        var files: [String]
        var rows: [DWARFLineRow]
        var subroutines: [DWARFSubroutine]
        var ranges: [UInt64]
    }

    func read(_ bytes: [UInt8], jobs: Int) throws -> [Summary] {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: bytes.count, alignment: 16)
        defer { buffer.deallocate() }
        buffer.copyBytes(from: bytes)
        let reader = try DWARFReader(image: UnsafeRawBufferPointer(buffer), owner: Owner())
        var units: [Summary] = []
        try reader.forEachUnit(jobs: jobs) { unit in
            units.append(Summary(name: unit.name, files: unit.files, rows: unit.lineRows, subroutines: unit.subroutines,
                                 ranges: unit.ranges.flatMap { [$0.start, $0.end] }))
        }
        return units
    }

    @Test(arguments: [false, true])
    func severalThreadsReadWhatOneReads(compressed: Bool) throws {
        guard let bytes = try image(compressed: compressed) else { return }
        let serial = try read(bytes, jobs: 1)
        #expect(serial.count == 7)
        #expect(serial.allSatisfy { !$0.rows.isEmpty && !$0.subroutines.isEmpty })
        for jobs in [2, 3, 8] {
            #expect(try read(bytes, jobs: jobs) == serial, "jobs: \(jobs)")
        }
    }
}
