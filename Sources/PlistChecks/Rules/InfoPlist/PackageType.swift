import LintKit
import PropertyList

/// CFBundlePackageType is one of the bundle types Apple defines.
public struct PackageType: LintRule {
    static let known = ["APPL", "FMWK", "BNDL", "XPC!"]

    public static let description = RuleDescription(
        id: "infoplist.package-type", category: .infoPlist, severity: .error,
        summary: "CFBundlePackageType is APPL, FMWK, BNDL or XPC! (or a build-setting reference).",
        rationale: """
            The package type tells the system what the bundle is: an app with anything but \
            APPL is not launched from the home screen and is refused at upload; a framework \
            marked APPL is refused as a nested app. Usually a copy-paste between targets.
            """,
        kinds: [.infoPlist],
        triggering: [RuleExample("↓<key>CFBundlePackageType</key>\n<string>APP</string>")],
        nonTriggering: [
            RuleExample("<key>CFBundlePackageType</key>\n<string>APPL</string>"),
            RuleExample("<key>CFBundlePackageType</key>\n<string>$(PRODUCT_BUNDLE_PACKAGE_TYPE)</string>"),
        ])

    public init() {}

    public func check(_ file: LintFile, _ context: inout RuleContext) {
        guard let value = file["CFBundlePackageType"] else { return }
        if let type = value.stringValue, Self.known.contains(type) || ValueFormat.hasBuildVariable(type) { return }
        context.report("CFBundlePackageType \(value.shortDescription) is not one of \(Self.known.joined(separator: ", "))", key: "CFBundlePackageType")
    }
}
