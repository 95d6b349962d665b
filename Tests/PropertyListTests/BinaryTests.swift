import Testing
@testable import PropertyList

/// Hand-built hostile binary plists: each must fail with an offset, quickly, without
/// allocating what the file claims.
@Suite struct BinaryTests {
    /// Assembles a bplist00 from object bodies with 1-byte offsets and refs.
    static func bplist(_ objects: [[UInt8]], top: UInt8 = 0, refSize: UInt8 = 1, count: UInt64? = nil) -> [UInt8] {
        var out = Array("bplist00".utf8)
        var offsets: [UInt8] = []
        for object in objects {
            offsets.append(UInt8(out.count))
            out += object
        }
        let table = out.count
        out += offsets
        out += [0, 0, 0, 0, 0, 0, 1, refSize]
        out += withUnsafeBytes(of: (count ?? UInt64(objects.count)).bigEndian, Array.init)
        out += withUnsafeBytes(of: UInt64(top).bigEndian, Array.init)
        out += withUnsafeBytes(of: UInt64(table).bigEndian, Array.init)
        return out
    }

    static func failure(_ bytes: [UInt8]) -> PlistError? {
        do { _ = try PropertyListCoding.read(bytes, format: .binary); return nil } catch { return error }
    }

    @Test func smallestPlist() throws {
        #expect(try PropertyListCoding.read(Self.bplist([[0x09]])).value == .bool(true))
    }

    @Test func cycleIsDetected() {
        // Array 0 contains array 1 which contains array 0.
        let error = Self.failure(Self.bplist([[0xA1, 1], [0xA1, 0]]))
        #expect(error?.message.contains("reference cycle") == true)
        #expect(error?.position == .byteOffset(8))
    }

    @Test func selfReferenceIsDetected() {
        #expect(Self.failure(Self.bplist([[0xA1, 0]]))?.message.contains("cycle") == true)
    }

    @Test func referenceBombIsRefused() {
        // 40 arrays each holding the next one twice: 2^40 values from 41 objects.
        var objects: [[UInt8]] = []
        for i in 0..<40 { objects.append([0xA2, UInt8(i + 1), UInt8(i + 1)]) }
        objects.append([0x09])
        let error = Self.failure(Self.bplist(objects))
        #expect(error?.message.contains("reference bomb") == true)
    }

    @Test func absurdCountsAllocateNothing() {
        // An array claiming 2^62 elements via an 8-byte count integer.
        let error = Self.failure(Self.bplist([[0xAF, 0x13, 0x40, 0, 0, 0, 0, 0, 0, 0]]))
        #expect(error?.message.contains("needs more bytes") == true)
        // A data object claiming 1 GiB.
        let data = Self.failure(Self.bplist([[0x4F, 0x12, 0x40, 0, 0, 0]]))
        #expect(data?.position == .byteOffset(9))
    }

    @Test func sixteenByteIntegerRange() throws {
        var tooBig: [UInt8] = [0x14, 0, 0, 0, 0, 0, 0, 0, 1]
        tooBig += [UInt8](repeating: 0, count: 8)
        #expect(Self.failure(Self.bplist([tooBig]))?.message.contains("does not fit") == true)
        let minusOne: [UInt8] = [0x14] + [UInt8](repeating: 0xFF, count: 16)
        #expect(try PropertyListCoding.read(Self.bplist([minusOne])).value == .int(-1))
        let max: [UInt8] = [0x14] + [UInt8](repeating: 0, count: 8) + [UInt8](repeating: 0xFF, count: 8)
        #expect(try PropertyListCoding.read(Self.bplist([max])).value == .integer(PlistInteger(UInt64.max)))
    }

    @Test func setReadsAsArrayWithWarning() throws {
        let document = try PropertyListCoding.read(Self.bplist([[0xC2, 1, 2], [0x10, 1], [0x10, 2]]))
        #expect(document.value == .array([.int(1), .int(2)]))
        #expect(document.warnings.count == 1)
    }

    @Test func nonStringKeyAndDuplicateKey() {
        #expect(Self.failure(Self.bplist([[0xD1, 1, 1], [0x10, 1]]))?.message.contains("not a string") == true)
        #expect(Self.failure(Self.bplist([[0xD2, 1, 1, 2, 2], [0x51, 0x61], [0x10, 1]]))?.message.contains("duplicate") == true)
    }

    @Test func nullAndFillAreNotValues() {
        #expect(Self.failure(Self.bplist([[0x00]]))?.message.contains("null") == true)
        #expect(Self.failure(Self.bplist([[0x0F]]))?.message.contains("fill") == true)
    }

    @Test func deepNestingHitsTheLimit() {
        var objects: [[UInt8]] = []
        for i in 0..<600 { objects.append([0xA1] + withUnsafeBytes(of: UInt16(i + 1).bigEndian, Array.init)) }
        objects.append([0x09])
        // 2-byte refs and offsets are needed beyond 255 objects: build by hand.
        var out = Array("bplist00".utf8)
        var offsets: [Int] = []
        for o in objects { offsets.append(out.count); out += o }
        let table = out.count
        for o in offsets { out += withUnsafeBytes(of: UInt16(o).bigEndian, Array.init) }
        out += [0, 0, 0, 0, 0, 0, 2, 2]
        out += withUnsafeBytes(of: UInt64(objects.count).bigEndian, Array.init)
        out += withUnsafeBytes(of: UInt64(0).bigEndian, Array.init)
        out += withUnsafeBytes(of: UInt64(table).bigEndian, Array.init)
        #expect(Self.failure(out)?.message.contains("nested deeper") == true)
    }

    @Test func unsupportedVersionAndWrongMagic() {
        #expect(Self.failure(Array("bplist15".utf8) + [UInt8](repeating: 0, count: 40))?.message.contains("unsupported") == true)
        #expect(Self.failure(Array("xplist00".utf8) + [UInt8](repeating: 0, count: 40))?.message.contains("no bplist00") == true)
    }

    /// Every truncation of a valid file fails cleanly (or, rarely, still parses).
    @Test func everyTruncationFailsCleanly() throws {
        let value = PlistValue.dictionary([
            "name": .string("devkit ✓"), "n": .int(-5), "list": .array([.double(1.5), .data([1, 2, 3]), .bool(true)]),
        ])
        let bytes = try PropertyListCoding.write(value, as: .binary)
        for length in 0..<bytes.count {
            #expect(throws: PlistError.self, "prefix \(length)") {
                try PropertyListCoding.read(Array(bytes[..<length]), format: .binary)
            }
        }
    }

    /// Flipping any single byte never traps.
    @Test func everyByteFlipIsHandled() throws {
        let value = PlistValue.array([.string("abc"), .string("dé"), .int(300), .uid(4), .date(PlistDate(secondsSinceReferenceDate: 0))])
        let bytes = try PropertyListCoding.write(value, as: .binary)
        for i in 0..<bytes.count {
            for flip: UInt8 in [0x01, 0x80, 0xFF] {
                var copy = bytes
                copy[i] ^= flip
                _ = try? PropertyListCoding.read(copy, format: .binary)
            }
        }
    }

    @Test func writerPicksSmallestWidthsAndDeduplicates() throws {
        let value = PlistValue.array([.string("same"), .string("same"), .int(1), .int(1)])
        let bytes = try PropertyListCoding.write(value, as: .binary)
        // array, "same", 1: three objects.
        #expect(bytes[bytes.count - 32 + 15] == 3)
        #expect(try PropertyListCoding.read(bytes).value == value)
        #expect(try PropertyListCoding.write(value, as: .binary) == bytes)
    }
}
