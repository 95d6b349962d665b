/// What a `symbolicate --group` run found: the groups and what it could not group.
public struct CrashGroupReport: Sendable {
    /// Most crashes first.
    public var groups: [CrashGroup]
    /// Logs grouped.
    public var logs: Int
    /// Files under the directories given that are no crash log devkit reads (by content), or
    /// core dumps, skipped without a word each.
    public var skipped: Int
    /// Logs that could not be read or parsed, one line each (`file:line: message`), also
    /// printed as warnings.
    public var unreadable: [UnreadableLog]

    public struct UnreadableLog: Sendable, Equatable {
        public var file: String
        /// The line the reader stopped at, when it says.
        public var line: Int?
        public var message: String
    }
}
