import FuzzCommon
import PropertyList

// libFuzzer entry point; built with -parse-as-library, so no top-level code here.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    fuzzOneInput(data, size, format: .xml)
}
