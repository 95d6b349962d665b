import Synchronization

/// An `ImageSymbolizer`'s index with the names and paths made from it: the one from the cache
/// (or built), or the one built again when a cache block turned out damaged on first use. A
/// lookup's string ids mean something only in the index that gave them, so strings made into
/// `String`s are kept here, and a `FrameText` belongs to one of these.
final class ImageIndex: Sendable {
    let index: AddressIndex
    /// Names (demangled as asked) and file paths made into `String`s once per string id; a
    /// dictionary, not an array the size of the string table: a core dump asks for a few
    /// dozen strings of tables hundreds of thousands long.
    let names = Mutex<[UInt32: String]>([:])
    let files = Mutex<[UInt32: String]>([:])

    init(_ index: AddressIndex) {
        self.index = index
    }
}
