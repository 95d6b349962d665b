/// Renders the frames of one address in the output styles of the usual tools.
public enum FrameOutputStyle: String, Sendable, CaseIterable {
    /// `llvm-symbolizer`: `function` then `file:line:column` per frame, a blank line after each address.
    case llvm
    /// GNU `addr2line -f -i`: `function` then `file:line` per frame.
    case gnu
    /// macOS `atos`: `function (in Binary) (file:line)` per frame.
    case atos
    /// One JSON object per address and line, shaped like `llvm-symbolizer --output-style=JSON`.
    case json
}
