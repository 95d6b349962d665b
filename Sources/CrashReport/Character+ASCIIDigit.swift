extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}
