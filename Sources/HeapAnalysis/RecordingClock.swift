/// When sequence numbers were taken: the recording's CLOCK records (a mark's time, and the
/// time of each thread's flush with the next seq to be taken), sorted by seq. A seq between
/// two readings is placed by linear interpolation, so times are exact at marks and within
/// one flush interval elsewhere.
public struct RecordingClock: Sendable, Equatable {
    public struct Reading: Sendable, Equatable {
        public var seq: UInt64
        /// CLOCK_MONOTONIC, nanoseconds.
        public var nanoseconds: UInt64
    }

    public private(set) var readings: [Reading] = []

    public init() {}

    mutating func append(_ reading: Reading) { readings.append(reading) }

    /// Sorted by seq; a reading that goes back in time (threads flush out of order) is
    /// raised to the latest earlier one, so time never decreases with seq.
    mutating func sortBySeq() {
        readings.sort { ($0.seq, $0.nanoseconds) < ($1.seq, $1.nanoseconds) }
        var latest: UInt64 = 0
        for i in readings.indices {
            latest = max(latest, readings[i].nanoseconds)
            readings[i].nanoseconds = latest
        }
    }

    public var isEmpty: Bool { readings.isEmpty }

    /// Nanoseconds since the first reading at which `seq` was taken, nil without readings.
    public func offset(of seq: UInt64) -> UInt64? {
        guard let first = readings.first, let last = readings.last else { return nil }
        if seq <= first.seq { return 0 }
        if seq >= last.seq { return last.nanoseconds - first.nanoseconds }
        // The first reading past `seq`; the one before it is at or below.
        var low = 0, high = readings.count
        while low < high {
            let middle = (low + high) / 2
            if readings[middle].seq <= seq { low = middle + 1 } else { high = middle }
        }
        let (a, b) = (readings[low - 1], readings[low])
        let span = Double(b.nanoseconds - a.nanoseconds) * Double(seq - a.seq) / Double(max(b.seq - a.seq, 1))
        return a.nanoseconds - first.nanoseconds + UInt64(span)
    }
}
