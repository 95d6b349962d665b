import LintKit
import PlistChecks
import PropertyList

/// A framework on Apple's list of commonly used third-party SDKs ships its own privacy
/// manifest.
///
/// Triggers when a framework whose name is on `PrivacyCatalog.commonlyUsedSDKs` has no
/// `PrivacyInfo.xcprivacy`.
public struct SDKMissingPrivacyManifest: LintRule {
    public static let description = RuleDescription(
        id: "privacy.sdk-missing-manifest", category: .privacy, severity: .error,
        summary: "A commonly used third-party SDK (Apple's list) embedded as a framework has its own PrivacyInfo.xcprivacy (ITMS-91061).",
        rationale: """
            Apple publishes a list of SDKs (Alamofire, Firebase, FBSDK, SDWebImage, …) that \
            must each carry a privacy manifest; since May 2024 an app embedding one without \
            it is rejected with ITMS-91061 "Missing privacy manifest". The fix is usually an \
            update of the SDK: every listed SDK has shipped a version with a manifest.
            """,
        kinds: [.bundleBinary],
        triggering: [
            RuleExample("""
                <key>binary</key><string>App.app/Frameworks/Alamofire.framework/Alamofire</string>
                <key>bundle</key><string>App.app/Frameworks/Alamofire.framework</string>
                <key>bundleName</key><string>Alamofire</string>
                <key>bundleKind</key><string>framework</string>
                """),
        ],
        nonTriggering: [
            RuleExample("""
                <key>bundle</key><string>App.app/Frameworks/Alamofire.framework</string>
                <key>bundleName</key><string>Alamofire</string>
                <key>bundleKind</key><string>framework</string>
                <key>privacyManifest</key><string>App.app/Frameworks/Alamofire.framework/PrivacyInfo.xcprivacy</string>
                """),
            RuleExample("""
                <key>bundle</key><string>App.app/Frameworks/OurKit.framework</string>
                <key>bundleName</key><string>OurKit</string>
                <key>bundleKind</key><string>framework</string>
                """),
        ])

    static let sdks = Set(PrivacyCatalog.commonlyUsedSDKs)

    public init() {}

    public func check(_ file: LintFile, _ context: inout RuleContext) {
        guard file["bundleKind"]?.stringValue == NestedBundle.Kind.framework.rawValue, file["privacyManifest"] == nil,
              let name = file["bundleName"]?.stringValue, Self.sdks.contains(name) else { return }
        context.report(Self.missing(file["bundle"]?.stringValue ?? name))
    }

    private static func missing(_ bundle: String) -> String {
        "\(bundle) is one of Apple's commonly used third-party SDKs but ships no PrivacyInfo.xcprivacy (ITMS-91061); update the SDK to a release that has one"
    }
}
