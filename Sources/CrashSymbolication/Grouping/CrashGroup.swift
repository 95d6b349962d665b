import CrashReport

/// Crashes of one signature: how many, when, in which versions, and one example.
public struct CrashGroup: Sendable {
    public var signature: CrashSignature
    public var count = 0
    /// The earliest and latest crash time among the logs that give one.
    public var first: CrashTimestamp?
    public var last: CrashTimestamp?
    /// Logs that give no time (or one devkit cannot read).
    public var undated = 0
    /// App versions (`1.0 (7)`) and how many crashes each; `unknown` for logs without one.
    public var appVersions: [String: Int] = [:]
    /// OS versions and how many crashes each.
    public var osVersions: [String: Int] = [:]
    /// Log formats (`CrashReport.Format` raw values) and how many crashes each.
    public var formats: [String: Int] = [:]
    /// The example log: the latest crash of the group (the first read among equals, and
    /// among the undated when none has a time).
    public var example: String
    public var exampleTime: CrashTimestamp?
    /// The example's crashed thread, symbolicated (filled by `CrashGrouping.groups`).
    public var exampleFrames: [CrashGroupFrame] = []
    /// The example's report, kept to symbolicate its whole crashed thread once at the end.
    var exampleReport: CrashReport?

    init(signature: CrashSignature, example: String) {
        self.signature = signature
        self.example = example
    }

    /// Counts sorted for printing: most crashes first, then by name.
    public static func sorted(_ counts: [String: Int]) -> [(name: String, count: Int)] {
        counts.map { (name: $0.key, count: $0.value) }.sorted { $0.count != $1.count ? $0.count > $1.count : $0.name < $1.name }
    }
}
