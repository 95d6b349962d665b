import DevKitTestSupport
import BinaryReading
@testable import HeapAnalysis
import Testing

/// The replay's fast paths against the checked decoder: validation's one-loop acceptance of a
/// column record gives the same verdict (error or count and last seq) as the checked decoder,
/// and the unchecked decoding of an accepted record the same events, for every byte of a record
/// set to values that break varints, tags and lengths.
struct EventColumnsFastPathTests {
    typealias Event = EventColumnsTests.Event

    static func payload(seed: UInt64) -> [UInt8] {
        var random = SplitMix64(seed: seed)
        var events: [Event] = []
        var live: [UInt64] = []
        for seq in UInt64(10)..<70 {
            switch random.next() % 5 {
            case 0, 1:
                let address = 0x7f00_0000_0000 + (random.next() % 4096) * 16
                events.append(.alloc(seq: seq, address: address, size: random.next() % 70_000, stack: UInt32(random.next() % 300),
                                     type: random.next() % 3 == 0 ? 0x5555_0000_1000 : 0))
                live.append(address)
            case 2 where !live.isEmpty:
                events.append(.free(seq: seq + random.next() % 200, address: live.removeLast()))
            case 3:
                events.append(.shortLived(seq: seq, bytes: random.next() % 100_000, blocks: random.next() % 20))
            default:
                events.append(.free(seq: seq, address: 0x10 &* (random.next() % 0x1_0000_0000)))
            }
        }
        // Seqs must not decrease within a record: the free's jitter above is sorted out.
        var seq: UInt64 = 0
        events = events.map { event in
            switch event {
            case let .alloc(s, a, size, stack, type): seq = max(seq, s); return .alloc(seq: seq, address: a, size: size, stack: stack, type: type)
            case let .free(s, a): seq = max(seq, s); return .free(seq: seq, address: a)
            case let .shortLived(s, b, n): seq = max(seq, s); return .shortLived(seq: seq, bytes: b, blocks: n)
            }
        }
        return EventColumnsTests.columns(thread: 7, base: 10, events)
    }

    /// The verdict of `validate` on `bytes`, fast path allowed or not, and the events of an accepted record.
    static func verdict(_ bytes: [UInt8], checkedOnly: Bool) -> String {
        bytes.withUnsafeBytes { buffer in
            var cursor = ByteCursor(buffer, section: "record")
            do {
                let record = try EventDecoder.validate(&cursor, columns: true, checkedOnly: checkedOnly)
                var checked = EventDecoder(record, in: buffer), fast = EventDecoder(record, in: buffer)
                var events: [String] = []
                while let event = try? checked.next() {
                    #expect(fast.nextValidated() == event)
                    events.append("\(event)")
                }
                #expect(fast.nextValidated() == nil)
                return "\(record.count) \(record.lastSeq) \(record.events) " + events.joined(separator: ";")
            } catch {
                return "\(error)"
            }
        }
    }

    @Test(arguments: [1, 2, 3])
    func acceptanceAgreesWithTheCheckedDecoder(seed: UInt64) {
        let payload = Self.payload(seed: seed)
        let whole = Self.verdict(payload, checkedOnly: false)
        #expect(whole == Self.verdict(payload, checkedOnly: true))
        #expect(whole.hasPrefix("5") || whole.hasPrefix("4") || whole.hasPrefix("3"), "\(whole.prefix(80))")
        var accepted = 0, refused = 0
        for index in 16..<payload.count {
            for value: UInt8 in [0, 1, 2, 3, 4, 5, 0x7f, 0x80, 0x81, 0xff] where payload[index] != value {
                var copy = payload
                copy[index] = value
                let fast = Self.verdict(copy, checkedOnly: false)
                #expect(fast == Self.verdict(copy, checkedOnly: true), "byte \(index) = \(value)")
                if fast.first?.isNumber == true { accepted += 1 } else { refused += 1 }
            }
        }
        // Both verdicts occur: the mutations reach the acceptance's every kind of check.
        #expect(accepted > 100 && refused > 100, "accepted \(accepted), refused \(refused)")
    }

    /// A record cut anywhere: the same verdict both ways.
    @Test func cutRecordsAgree() {
        let payload = Self.payload(seed: 9)
        for length in 0...payload.count {
            let cut = Array(payload[..<length])
            #expect(Self.verdict(cut, checkedOnly: false) == Self.verdict(cut, checkedOnly: true), "cut at \(length)")
        }
    }
}
