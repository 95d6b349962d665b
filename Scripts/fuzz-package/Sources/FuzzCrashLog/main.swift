import CrashReport

// libFuzzer entry point; built with -parse-as-library, so no top-level code here.
// Every crash-log reader over arbitrary bytes, by detection and each by name: any input must
// give a report (whose summary and JSON value can be made) or a CrashReportError, never a
// trap, a hang or an out-of-bounds read (AddressSanitizer).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    _ = CrashReportParser.detectFormat(bytes)
    if let document = try? CrashReportParser.parse(bytes) {
        _ = document.report.summary()
        _ = document.report.plistValue
    }
    for format in [CrashReport.Format.appleText, .ips, .swiftBacktrace, .sanitizer, .addressList, .metricKit, .kscrash] {
        if let document = try? CrashReportParser.parse(bytes, as: format) {
            _ = document.report.summary()
            _ = document.report.plistValue
        }
    }
    return 0
}
