import Dispatch

/// A transform over many independent items on several threads (libdispatch, no Foundation).
public enum ParallelMap {
    /// `transform` over `items` on up to `jobs` threads, results in input order. Items go in
    /// chunks of consecutive ones, `chunksPerJob` per thread, so one slow item does not idle
    /// a core.
    public static func map<T: Sendable, R: Sendable>(_ items: [T], jobs: Int, chunksPerJob: Int = 8, _ transform: @Sendable (T) -> R) -> [R] {
        let jobs = max(1, min(jobs, items.count))
        if jobs == 1 { return items.map(transform) }
        // Each slot is written by exactly one iteration, so no lock is needed.
        let slots = UnsafeMutableBufferPointer<R?>.allocate(capacity: items.count)
        slots.initialize(repeating: nil)
        defer { slots.deinitialize(); slots.deallocate() }
        nonisolated(unsafe) let shared = slots
        let chunk = max(1, items.count / (jobs * max(1, chunksPerJob)))
        let chunks = (items.count + chunk - 1) / chunk
        DispatchQueue.concurrentPerform(iterations: chunks) { c in
            for i in (c * chunk)..<min(items.count, (c + 1) * chunk) { shared[i] = transform(items[i]) }
        }
        return slots.compactMap { $0 }
    }
}
