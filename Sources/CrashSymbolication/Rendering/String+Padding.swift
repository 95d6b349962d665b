import CrashReport

extension String {
    /// Left-aligned in `width` columns.
    func padding(_ width: Int) -> String { count >= width ? self : self + String(repeating: " ", count: width - count) }
}
