import BinaryReading
import OrderedCollections
import PropertyList
import X509

public enum ProfileEncoding: String, Sendable {
    case der = "DER"
    case berIndefiniteLength = "BER (indefinite length)"
}
