/// A build-id or UUID as the user typed it, normalised to lowercase hex without dashes;
/// nil if it is not hex.
public func normalizedIdentifier(_ text: String) -> String? {
    var result = ""
    for character in text.lowercased() where character != "-" {
        guard character.isHexDigit else { return nil }
        result.append(character)
    }
    return result.isEmpty ? nil : result
}
