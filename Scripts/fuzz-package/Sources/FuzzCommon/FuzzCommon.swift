import PropertyList

/// One libFuzzer input for one reader: read it as `format`; a thrown `PlistError` is a
/// correct rejection. A value that parses is written back in the same format (a write
/// that throws — the format cannot hold the value — is fine) and read again, and the two
/// values must be equal: that catches writer/reader disagreements.
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int, format: PlistFormat) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: data, count: size)
    guard let first = try? PropertyListCoding.read(bytes, format: format) else { return 0 }
    guard let written = try? PropertyListCoding.write(first.value, as: format) else { return 0 }
    let second: PlistDocument
    do {
        second = try PropertyListCoding.read(written, format: format)
    } catch {
        preconditionFailure("\(format): reading back our own output failed: \(error)\nvalue: \(first.value)\nwritten: \(describe(written))")
    }
    precondition(
        second.value == first.value,
        "\(format): round trip changed the value\nfirst:  \(first.value)\nsecond: \(second.value)\nwritten: \(describe(written))"
    )
    return 0
}

private func describe(_ bytes: [UInt8]) -> String {
    let shown = bytes.prefix(4096)
    if let text = String(validating: shown, as: UTF8.self), !shown.contains(0) { return text }
    return shown.map { String($0, radix: 16) }.joined(separator: " ")
}
