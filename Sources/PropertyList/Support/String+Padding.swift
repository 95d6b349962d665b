extension String {
    /// The string with `pad` characters in front up to `width` characters (hex codes, dates).
    package func leftPadded(_ width: Int, with pad: Character = "0") -> String {
        count >= width ? self : String(repeating: pad, count: width - count) + self
    }
}
