/// The outcome of checking a SignedData: each step separately, so a report can say which
/// one failed.
public struct SignatureCheck: Sendable, Equatable {
    /// Did the content's digest equal the signed `message-digest` attribute?
    public var digest: StepResult
    /// Did the signature over the signed attributes verify with the signer's certificate?
    public var signature: StepResult
    /// Does the signer's certificate chain to a trusted root?
    public var chain: ChainResult
    /// The signer's certificate and the issuers found for it, signer first.
    public var signerChain: [CertificateSummary]

    /// Digest and signature both valid, and the chain not refused.
    public var isValid: Bool {
        guard digest == .valid, signature == .valid else { return false }
        if case .untrusted = chain { return false }
        return true
    }

    /// The first failure, in words; nil when valid.
    public var failure: String? {
        if case .invalid(let why) = digest { return why }
        if case .invalid(let why) = signature { return why }
        if case .untrusted(let why) = chain { return "certificate chain not trusted: \(why)" }
        return nil
    }

    /// One line: "signature valid, chain not verified (no trust roots given)".
    public var summary: String {
        if let failure { return "INVALID: \(failure)" }
        switch chain {
        case .notVerified: return "signature valid, chain not verified (no trust roots given)"
        case .trusted(let root): return "signature valid, chain verified to \"\(root)\""
        case .untrusted: return "INVALID"
        }
    }
}
