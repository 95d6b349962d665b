import Testing
@testable import PropertyList

/// The binary writer's sharing of equal scalars (`ScalarTable` by fingerprints of their object bytes).
@Suite struct BinaryWriterTests {
    /// Objects in a written file (the trailer's count).
    static func objectCount(_ bytes: [UInt8]) -> Int {
        bytes[(bytes.count - 24)..<(bytes.count - 16)].reduce(0) { $0 << 8 | Int($1) }
    }

    @Test func equalScalarsAreWrittenOnce() throws {
        // 3,000 values drawn from 7 distinct scalars of every kind, plus the array.
        let pool: [PlistValue] = [.string("a"), .string("é"), .int(-5), .double(0.5), .bool(true),
                                  .date(PlistDate(secondsSinceReferenceDate: 3)), .data([1, 2, 3])]
        let value = PlistValue.array((0..<3000).map { pool[$0 % pool.count] })
        let bytes = try PropertyListCoding.write(value, as: .binary)
        #expect(Self.objectCount(bytes) == pool.count + 1)
        #expect(try PropertyListCoding.read(bytes).value == value)
    }

    @Test func manyDistinctScalarsStayDistinct() throws {
        // Enough to grow the table several times; integers, reals and strings that differ
        // only in high bits or one byte.
        var items: [PlistValue] = []
        for i in 0..<20_000 {
            items.append(.int(Int64(i) << 40))
            items.append(.double(Double(i) * 0.25))
            items.append(.string("key-\(i)"))
        }
        let value = PlistValue.array(items + items)
        let bytes = try PropertyListCoding.write(value, as: .binary)
        #expect(Self.objectCount(bytes) == items.count + 1)
        #expect(try PropertyListCoding.read(bytes).value == value)
    }

    @Test func spellingsOfOneLetterKeepTheirBytes() throws {
        // Canonically equivalent (equal as Swift strings) but different bytes: both kept.
        let composed = "caf\u{E9}", decomposed = "cafe\u{301}"
        let bytes = try PropertyListCoding.write(.array([.string(composed), .string(decomposed)]), as: .binary)
        #expect(Self.objectCount(bytes) == 3)
        guard case .array(let back) = try PropertyListCoding.read(bytes).value,
              case .string(let first) = back[0], case .string(let second) = back[1] else {
            Issue.record("not an array of two strings")
            return
        }
        #expect(Array(first.utf8) == Array(composed.utf8))
        #expect(Array(second.utf8) == Array(decomposed.utf8))
    }

    @Test func everyNaNIsOneObjectAndSignedZerosAreTwo() throws {
        let quiet = Double.nan, payload = Double(bitPattern: 0x7FF8_0000_0000_0123), signalling = Double.signalingNaN
        let value = PlistValue.array([.double(quiet), .double(payload), .double(signalling), .double(0.0), .double(-0.0), .double(-0.0)])
        let bytes = try PropertyListCoding.write(value, as: .binary)
        // The array, one NaN (the first one's bits), 0.0 and -0.0.
        #expect(Self.objectCount(bytes) == 4)
        guard case .array(let back) = try PropertyListCoding.read(bytes).value, back.count == 6,
              case .real(let first) = back[0], case .real(let third) = back[2], case .real(let negativeZero) = back[4] else {
            Issue.record("not an array of six reals")
            return
        }
        #expect(first.value.bitPattern == quiet.bitPattern && third.value.bitPattern == quiet.bitPattern)
        #expect(negativeZero.value.bitPattern == (-0.0).bitPattern)
    }

    @Test func equalScalarsAcrossKindsStayApart() throws {
        // Same payload bits, different kinds: a real and a date, an ASCII string and data.
        let value = PlistValue.array([.double(3), .date(PlistDate(secondsSinceReferenceDate: 3)), .string("ab"), .data(Array("ab".utf8)),
                                      .int(1), .bool(true), .uid(1), .string("ab")])
        let bytes = try PropertyListCoding.write(value, as: .binary)
        #expect(Self.objectCount(bytes) == 8)
        #expect(try PropertyListCoding.read(bytes).value == value)
    }

    @Test func longStringsAndDataAreSharedAndWrittenWhole() throws {
        // Longer than the writer keeps inline: ASCII, UTF-16 and data of the same bytes, each
        // twice, beside values one byte different; counts past 15 take an integer object.
        let ascii = String(repeating: "abcdefgh", count: 40), accented = String(repeating: "caf\u{E9} ", count: 30)
        let values: [PlistValue] = [.string(ascii), .string(accented), .data(Array(ascii.utf8)), .string(ascii + "!"),
                                    .data(Array(ascii.utf8) + [0]), .string(accented), .string(ascii), .data(Array(ascii.utf8)),
                                    .string(String(repeating: "x", count: 64)), .string(String(repeating: "x", count: 65)),
                                    .data(Array(repeating: 7, count: 64)), .data(Array(repeating: 7, count: 65))]
        let value = PlistValue.array(values)
        let bytes = try PropertyListCoding.write(value, as: .binary)
        // The array and nine distinct values.
        #expect(Self.objectCount(bytes) == 10)
        #expect(try PropertyListCoding.read(bytes).value == value)
        // The same file as a value that shares nothing by size: every object's offset points
        // at its marker, so a file read back and written again is byte-identical.
        #expect(try PropertyListCoding.write(PropertyListCoding.read(bytes).value, as: .binary) == bytes)
    }
}
