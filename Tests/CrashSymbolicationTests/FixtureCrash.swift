import DevKitTestSupport
import System
import Foundation
import ObjectFile
import Testing

/// The crashy.c Mach-O fixtures, what their symbol tables say, and llvm-symbolizer's answer
/// for their addresses (the oracle every end-to-end test compares with).
struct FixtureCrash {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
    /// Where the tests pretend the image was loaded (an ASLR slide of 0x4f6c000).
    static let loadAddress: UInt64 = 0x1_04f6_c000

    let binary: String
    let dwarf: String
    let uuid: String
    let textAddress: UInt64
    let symbols: [String: UInt64]

    /// The fixture for `arch` (arm64 or x86_64).
    init(arch: String) throws {
        binary = Self.fixtures.appendingPathComponent("crashy-\(arch)").path
        dwarf = Self.fixtures.appendingPathComponent("crashy-\(arch).dSYM/Contents/Resources/DWARF/crashy-\(arch)").path
        let file = try MappedFile(path: binary)
        let slice = try #require(try MachOFile.images(Array(file.bytes)).first)
        let contents = try MachOContents.read(slice, bytes: file.bytes)
        uuid = try #require(contents.uuid).map { String(format: "%02x", $0) }.joined()
        textAddress = contents.textAddress
        var table: [String: UInt64] = [:]
        for symbol in contents.symbols { table[String(symbol.name.dropFirst())] = symbol.value }
        symbols = table
    }

    /// The runtime address of `symbol + offset` when loaded at `loadAddress`.
    func runtime(_ symbol: String, _ offset: UInt64 = 0) throws -> UInt64 {
        Self.loadAddress + (try #require(symbols[symbol], "no symbol \(symbol)") - textAddress) + offset
    }

    /// llvm-symbolizer's inlined chain at a runtime address: (function, line, column), innermost first.
    func oracle(runtime address: UInt64) throws -> [(String, UInt32, UInt32)] {
        let tool = try #require(TestProcess.find("llvm-symbolizer"))
        let fileAddress = address - Self.loadAddress + textAddress
        let result = try TestProcess.run(tool, ["--inlines", "--obj=\(dwarf)", "0x" + String(fileAddress, radix: 16)])
        let lines = result.stdout.split(separator: "\n").map(String.init)
        return stride(from: 0, to: lines.count - 1, by: 2).map { index in
            let position = lines[index + 1].split(separator: ":")
            return (lines[index], UInt32(position[position.count - 2]) ?? 0, UInt32(position[position.count - 1]) ?? 0)
        }
    }

    static func hex(_ value: UInt64) -> String { "0x" + String(value, radix: 16) }
    static func padded(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return "0x" + String(repeating: "0", count: max(0, 16 - digits.count)) + digits
    }
}
