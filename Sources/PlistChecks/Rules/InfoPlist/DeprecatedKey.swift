import LintKit
import PropertyList

/// Info.plist keys Apple has deprecated, with their replacements.
public struct DeprecatedKey: LintRule {
    /// Deprecated key → what to use instead.
    static let table: [(key: String, advice: String)] = [
        ("UILaunchImages", "use a launch storyboard (UILaunchStoryboardName) or UILaunchScreen; the App Store requires one"),
        ("UILaunchImageFile", "use a launch storyboard (UILaunchStoryboardName) or UILaunchScreen"),
        ("UILaunchImageFile~ipad", "use a launch storyboard (UILaunchStoryboardName) or UILaunchScreen"),
        ("UILaunchImageFile~iphone", "use a launch storyboard (UILaunchStoryboardName) or UILaunchScreen"),
        ("NSLocationAlwaysUsageDescription", "iOS 11 and later read NSLocationAlwaysAndWhenInUseUsageDescription"),
        ("NSBluetoothPeripheralUsageDescription", "iOS 13 and later read NSBluetoothAlwaysUsageDescription"),
        ("UIApplicationExitsOnSuspend", "current iOS versions ignore it; apps can no longer opt out of running in the background"),
        ("UINewsstandApp", "Newsstand was removed in iOS 9"),
    ]

    public static let description = RuleDescription(
        id: "infoplist.deprecated-key", category: .infoPlist, severity: .warning,
        summary: "No deprecated Info.plist keys (launch images, old purpose-string keys, UIApplicationExitsOnSuspend, …).",
        rationale: """
            Deprecated keys are ignored by current iOS versions, so the behaviour they \
            promise does not happen, and some (launch images instead of a launch storyboard) \
            make App Store Connect reject the upload. The message names the replacement.
            """,
        kinds: [.infoPlist],
        triggering: [RuleExample("↓<key>NSLocationAlwaysUsageDescription</key>\n<string>Tracks your runs.</string>\n↓<key>UIApplicationExitsOnSuspend</key>\n<true/>")],
        nonTriggering: [RuleExample("<key>NSLocationAlwaysAndWhenInUseUsageDescription</key>\n<string>Tracks your runs.</string>")])

    public init() {}

    public func check(_ file: LintFile, _ context: inout RuleContext) {
        guard let entries = file.value.dictionaryEntries else { return }
        for (key, _) in entries {
            guard let entry = Self.table.first(where: { $0.key == key }) else { continue }
            context.report("\(key) is deprecated: \(entry.advice)", key: key)
        }
    }
}
