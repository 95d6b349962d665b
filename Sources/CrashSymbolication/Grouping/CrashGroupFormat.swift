/// How `devkit symbolicate --group` prints its groups.
public enum CrashGroupFormat: String, Sendable {
    /// One block a group (`CrashGroupTextRenderer`).
    case text
    /// One JSON object (`CrashGroupJSONRenderer`).
    case json
    /// One self-contained page: a table and each group's frames (`CrashGroupHTMLRenderer`).
    case html
}
