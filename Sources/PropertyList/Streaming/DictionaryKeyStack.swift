import System

/// The UTF-8 keys of the dictionaries a transcoder is writing, innermost last, in one byte
/// buffer: a streaming reader must refuse a dictionary with two equal keys as the tree's
/// `OrderedDictionary` does, without a `String` per key.
///
/// A dictionary's keys are addressed from the `mark` taken when it opened; keys of the
/// dictionaries inside it follow its own, so its keys stay in place while they are written.
struct DictionaryKeyStack: ~Copyable {
    private var bytes = ByteBuffer()
    /// Where each key starts in `bytes`.
    private var starts: [Int] = []

    /// Where the keys of a dictionary opening now begin.
    var mark: Int { starts.count }

    mutating func append(_ key: UnsafeBufferPointer<UInt8>) {
        starts.append(bytes.count)
        bytes.write(key)
    }

    /// Forgets the keys from `mark` on (the dictionary that took it has closed).
    mutating func pop(to mark: Int) {
        guard mark < starts.count else { return }
        bytes.removeLast(bytes.count - starts[mark])
        starts.removeSubrange(mark...)
    }

    /// Key `index` of the dictionary that took `mark`, valid during `body` only.
    func withKey<R>(_ index: Int, from mark: Int, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        bytes.withUnsafeBufferPointer { all in body(UnsafeBufferPointer(rebasing: all[range(mark + index)])) }
    }

    private func range(_ key: Int) -> Range<Int> {
        starts[key]..<(key + 1 < starts.count ? starts[key + 1] : bytes.count)
    }

    /// Lengths first: most keys of a dictionary differ in length. (`elementsEqual`, which
    /// compares no lengths, was 5% of converting Scripts/bench/plist's mixed binary to XML.)
    @inline(__always)
    private static func sameBytes(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        guard a.count == b.count else { return false }
        for i in 0..<a.count where a[i] != b[i] { return false }
        return true
    }

    /// Whether two of the `count` keys from `mark` are equal as `String`s are. ASCII keys are
    /// equal exactly when their bytes are; other text compares by canonical equivalence, so
    /// keys with any non-ASCII byte are compared as `String`s. Large dictionaries compare hashes
    /// of the bytes only: a collision says "duplicate", and the caller's tree reader decides.
    func hasDuplicate(from mark: Int, count: Int) -> Bool {
        guard count > 1 else { return false }
        return bytes.withUnsafeBufferPointer { all in
            let lower = starts[mark], upper = range(mark + count - 1).upperBound
            func key(_ i: Int) -> UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(rebasing: all[range(mark + i)]) }
            if UnsafeBufferPointer(rebasing: all[lower..<upper]).contains(where: { $0 >= 0x80 }) {
                var seen = Set<String>(minimumCapacity: count)
                for i in 0..<count where !seen.insert(String(decoding: key(i), as: UTF8.self)).inserted { return true }
                return false
            }
            if count <= 12 {
                for i in 1..<count {
                    let a = key(i)
                    for j in 0..<i where Self.sameBytes(key(j), a) { return true }
                }
                return false
            }
            var seen = Set<Int>(minimumCapacity: count)
            for i in 0..<count {
                var hasher = Hasher()
                hasher.combine(bytes: UnsafeRawBufferPointer(key(i)))
                if !seen.insert(hasher.finalize()).inserted { return true }
            }
            return false
        }
    }
}
