import BinaryReading
import SwiftASN1

/// A dotted object identifier (OID), kept as text: it is compared and printed, never computed on.
public struct OID: Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    public var dotted: String
    public init(_ dotted: String) { self.dotted = dotted }
    public init(stringLiteral value: String) { dotted = value }
    public var description: String { dotted }

    public static let signedData: OID = "1.2.840.113549.1.7.2"
    public static let data: OID = "1.2.840.113549.1.7.1"
    public static let contentTypeAttribute: OID = "1.2.840.113549.1.9.3"
    public static let messageDigestAttribute: OID = "1.2.840.113549.1.9.4"
}
