import BinaryReading
import OrderedCollections
import PropertyList

public enum ProfileEncoding: String, Sendable {
    case der = "DER"
    case berIndefiniteLength = "BER (indefinite length)"
}
