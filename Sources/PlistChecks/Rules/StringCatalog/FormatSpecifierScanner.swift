/// Finds the format directives in a string: the printf grammar Foundation's
/// `String(format:)` reads (`%[n$][flags][width][.precision][length]conversion`, with `%@`),
/// plus String Catalog placeholders (`%#@name@` substitutions; `%arg` inside a
/// substitution's variations).
///
/// One departure from printf, on purpose: `%` followed by a space is text, not a
/// space-flagged directive. printf would read "50% off" as `% o`, an octal conversion, but in
/// catalogs it is a percent sign before a word, and a translation writing "50 % Rabatt"
/// would otherwise seem to change the format.
public enum FormatSpecifierScanner {
    public static func scan(_ text: String, inSubstitution: Bool = false) -> [FormatSpecifier] {
        let bytes = Array(text.utf8)
        var found: [FormatSpecifier] = []
        var i = 0
        while i < bytes.count {
            guard bytes[i] == UInt8(ascii: "%") else { i += 1; continue }
            let start = i
            let (conversion, position, end, stars) = directive(bytes, from: i + 1, inSubstitution: inSubstitution)
            i = end
            guard let conversion else { continue }
            // A `*` width or precision takes its int argument before the value's.
            for star in stars { found.append(FormatSpecifier(text: "*", position: star, conversion: .starWidth)) }
            found.append(FormatSpecifier(text: String(decoding: bytes[start..<end], as: UTF8.self),
                                         position: position, conversion: conversion))
        }
        return found
    }

    /// Reads one directive whose `%` is just before `j`; nil conversion for text (`% `).
    private static func directive(_ b: [UInt8], from start: Int, inSubstitution: Bool) -> (FormatSpecifier.Conversion?, Int?, Int, [Int?]) {
        var j = start
        func at(_ k: Int) -> UInt8? { k < b.count ? b[k] : nil }
        func starts(_ s: String, _ k: Int) -> Bool { b[min(k, b.count)...].starts(with: s.utf8) }
        func digits() -> Int? {
            var value = 0, any = false
            while let c = at(j), c >= UInt8(ascii: "0"), c <= UInt8(ascii: "9") {
                value = min(value * 10 + Int(c - UInt8(ascii: "0")), 1_000_000)
                any = true
                j += 1
            }
            return any ? value : nil
        }
        guard let first = at(j) else { return (.invalid, nil, j, []) }
        if first == UInt8(ascii: "%") { return (.percent, nil, j + 1, []) }
        if first == UInt8(ascii: " ") { return (nil, nil, j, []) }
        // An argument number: digits then `$` (else the digits were a width).
        var position: Int?
        let beforeDigits = j
        if let n = digits(), at(j) == UInt8(ascii: "$"), n > 0 {
            position = n
            j += 1
        } else {
            j = beforeDigits
        }
        if starts("#@", j) {
            var k = j + 2
            while k < b.count, b[k] != UInt8(ascii: "@") { k += 1 }
            guard k < b.count, k > j + 2 else { return (.invalid, position, min(j + 2, b.count), []) }
            return (.substitution(String(decoding: b[(j + 2)..<k], as: UTF8.self)), position, k + 1, [])
        }
        if inSubstitution, position == nil, starts("arg", j) { return (.substitutionArgument, nil, j + 3, []) }
        while let c = at(j), "-+ #0'".utf8.contains(c) { j += 1 }
        var stars: [Int?] = []
        // Width, then precision: digits, or `*` (an int argument, `*n$` numbered).
        for part in 0..<2 {
            if part == 1 {
                guard at(j) == UInt8(ascii: ".") else { break }
                j += 1
            }
            if at(j) == UInt8(ascii: "*") {
                j += 1
                let save = j
                if let n = digits(), at(j) == UInt8(ascii: "$"), n > 0 {
                    j += 1
                    stars.append(n)
                } else {
                    j = save
                    stars.append(nil)
                }
            } else {
                _ = digits()
            }
        }
        var length = ""
        for modifier in ["hh", "ll", "h", "l", "q", "L", "j", "z", "t"] where starts(modifier, j) {
            length = modifier
            j += modifier.utf8.count
            break
        }
        guard let c = at(j) else { return (.invalid, position, j, stars) }
        j += 1
        let wide = ["l", "ll", "q", "j", "z", "t"].contains(length)
        let conversion: FormatSpecifier.Conversion
        switch Character(Unicode.Scalar(c)) {
        case "d", "i", "u", "o", "x", "X": conversion = .integer(wide: wide)
        case "D", "U", "O": conversion = .integer(wide: true)
        case "f", "F", "e", "E", "g", "G", "a", "A": conversion = .double(long: length == "L")
        case "@": conversion = .object
        case "s": conversion = .cString(wide: length == "l")
        case "S": conversion = .cString(wide: true)
        case "c": conversion = .character(wide: length == "l")
        case "C": conversion = .character(wide: true)
        case "p": conversion = .pointer
        case "n": conversion = .count
        default:
            conversion = .invalid
            // The whole character, not its first byte, so the text stays valid UTF-8.
            while let next = at(j), next & 0xC0 == 0x80 { j += 1 }
        }
        return (conversion, position, j, conversion == .invalid ? [] : stars)
    }
}
