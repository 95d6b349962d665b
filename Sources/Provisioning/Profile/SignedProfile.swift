import BinaryReading
import OrderedCollections
import PropertyList

/// A profile as read from its file: the payload, how it was signed and whether that holds.
public struct SignedProfile: Sendable {
    public var profile: ProvisioningProfile
    public var signature: SignatureCheck
    /// DER, or BER with indefinite lengths (as `security cms` writes them).
    public var encoding: ProfileEncoding
}
