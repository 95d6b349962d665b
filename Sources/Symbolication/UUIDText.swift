import BinaryReading

/// UUIDs as Apple prints them.
enum UUIDText {
    /// Uppercase hex, 8-4-4-4-12 (any other length: plain uppercase hex).
    static func format(_ bytes: [UInt8]) -> String {
        let hex = hexString(bytes).uppercased()
        guard hex.count == 32 else { return hex }
        let characters = Array(hex)
        return [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(characters[$0]) }.joined(separator: "-")
    }
}
