import LintKit

extension FileKind {
    /// A Mach-O inside an app bundle as the bundle rules see it: the dictionary
    /// `RequiredReasonScan.subject` makes of it (its bundle, the bundle's privacy manifest
    /// and declared categories, its required-reason imports). Never a file on disk.
    public static let bundleBinary = FileKind(rawValue: "bundle-binary")
    /// A signed Mach-O inside an app bundle as the signature rules see it: the dictionary
    /// `SignatureInspection` makes of its code signature, its bundle's resource seal and
    /// embedded profile. Never a file on disk.
    public static let bundleSignature = FileKind(rawValue: "bundle-signature")
}
