import LintKit
import PropertyList

/// What the plist rules know about the product beyond its files, set from the command line
/// (`devkit lint --built-product --configuration --project-dir --app`).
public struct PlistLintOptions: LintOptions, Hashable {
    /// The files are a built product (`--built-product`): build settings must be expanded.
    public var isBuiltProduct: Bool
    /// The configuration the files are meant for (`--configuration`); nil when not said.
    public var configuration: BuildConfiguration?
    /// Names of the files in the project folder (`--project-dir`), for rules that check a
    /// key names an existing file; nil when no project folder was given.
    public var projectFileNames: Set<String>?
    /// The app's Info.plist (`--app`), for rules comparing a manifest to it.
    public var appInfo: PlistValue?

    public init(isBuiltProduct: Bool = false, configuration: BuildConfiguration? = nil,
                projectFileNames: Set<String>? = nil, appInfo: PlistValue? = nil) {
        self.isBuiltProduct = isBuiltProduct
        self.configuration = configuration
        self.projectFileNames = projectFileNames
        self.appInfo = appInfo
    }

    public var flags: [String] {
        var flags: [String] = []
        if isBuiltProduct { flags.append("--built-product") }
        if let configuration { flags.append("--configuration \(configuration.rawValue)") }
        if projectFileNames != nil { flags.append("--project-dir") }
        if appInfo != nil { flags.append("--app") }
        return flags
    }
}
