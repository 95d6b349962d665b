import LintKit

extension FileKind {
    /// A provisioning profile as `devkit provision lint` sees it: the dictionary that
    /// `devkit provision inspect --format json` prints for it (profile fields, signature
    /// verdict, days until expiry measured at the run's instant, and `app` for apps).
    public static let provisioningProfile = FileKind(rawValue: "provisioning-profile")
}
