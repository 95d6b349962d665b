import Provisioning

// libFuzzer entry point; built with -parse-as-library, so no top-level code here.
// CMS SignedData parsing (swift-asn1 BER, the offset-finding structure scan, the SignedData
// walk), signature verification and the profile model: any input must give a profile or a
// ProvisioningError, never a trap or an out-of-bounds read.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    _ = try? ProfileReader.read(bytes)
    return 0
}
