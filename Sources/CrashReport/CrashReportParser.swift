/// Entry point: recognises the format and hands the bytes to its reader.
public enum CrashReportParser {
    public static func parse(_ bytes: [UInt8]) throws(CrashReportError) -> CrashReportDocument {
        var start = 0
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { start = 3 }
        while start < bytes.count, bytes[start] == 0x20 || bytes[start] == 0x09 || bytes[start] == 0x0A || bytes[start] == 0x0D {
            start += 1
        }
        if start < bytes.count, bytes[start] == UInt8(ascii: "{") {
            return try IPSReader.read(bytes[start...])
        }
        return try AppleCrashTextReader.read(bytes[start...])
    }
}
