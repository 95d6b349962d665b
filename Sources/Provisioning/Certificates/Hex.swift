enum Hex {
    static func upper<S: Sequence<UInt8>>(_ bytes: S) -> String {
        let digits = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0xf)])
        }
        return out.isEmpty ? "00" : String(decoding: out, as: UTF8.self)
    }
}
