import PropertyList

/// A developer certificate from a profile's `DeveloperCertificates`: parsed, or the reason it
/// did not parse (a profile with one bad certificate is still worth showing).
public enum DeveloperCertificate: Sendable, Equatable {
    case parsed(CertificateSummary)
    case unreadable(index: Int, reason: String)
}
