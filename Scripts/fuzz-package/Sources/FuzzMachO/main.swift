import ObjectFile

// libFuzzer entry point; built with -parse-as-library, so no top-level code here.
// The Mach-O load-command walk and the code-signature SuperBlob: any input must give images
// and blobs or a DecodeError, never a trap or an out-of-bounds read (AddressSanitizer).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let images = try? MachOFile.images(bytes) else { return 0 }
    for image in images {
        _ = try? CodeSignature.read(bytes, image: image)
    }
    return 0
}
