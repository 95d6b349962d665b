/// Finding the faulting address in the ways Apple reports write it.
enum FaultAddress {
    /// `KERN_INVALID_ADDRESS at 0x18`, `SEGV_MAPERR at 0x8`, `BUS_ADRALN at 0xcd0b1c`: the
    /// address after the first ` at `. With pointer authentication the log writes
    /// `at 0x2000000100ae9df8 -> 0x0000000100ae9df8 (…)`; the address as signed is kept (the
    /// one the CPU was given), the stripped one follows the arrow.
    static func afterAt(_ text: some StringProtocol) -> UInt64? {
        guard let at = text.firstRange(of: " at ") else { return nil }
        let word = text[at.upperBound...].trimmedWhitespace.prefix(while: { !$0.isWhitespace && $0 != "," && $0 != ")" })
        guard word.hasPrefix("0x") || word.hasPrefix("0X") else { return nil }
        return parseHex(Substring(word))
    }

    /// `0x0000000000000001, 0x0000000000000018` (EXC_BAD_ACCESS codes: kern_return_t, address)
    /// → the second value.
    static func fromBadAccessCodes(_ codes: some StringProtocol) -> UInt64? {
        let parts = codes.split(separator: ",").map { $0.trimmedWhitespace }
        guard parts.count == 2, parseHex(parts[0]) != nil else { return nil }
        return parseHex(parts[1])
    }

    /// `0x100ae9df8 is in 0x100ae4000-…` or `0 is not in any region.` (`VM Region Info`,
    /// `.ips` `vmRegionInfo`) → the address the line is about.
    static func fromRegionInfo(_ text: some StringProtocol) -> UInt64? {
        let words = text.trimmedWhitespace.split(separator: " ", maxSplits: 2)
        guard words.count >= 2, words[1] == "is" else { return nil }
        return parseHex(words[0])
    }
}
