/// The start of a generation (a heapshot).
public struct GenerationMark: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// The recording started.
        case start
        /// The program called `devkit_heap_mark`.
        case api
        /// The mark signal (`devkit heap mark`).
        case signal
        /// `devkit heap record --interval`.
        case interval
        /// A kind this reader does not know.
        case other(UInt32)
    }

    public var seq: UInt64
    public var kind: Kind
    public var label: String
}
