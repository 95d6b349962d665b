@testable import CoreDump
import Testing

/// `RegisterLayout.registers` on words that say where they came from: every listed register
/// carries the value at its own name's position in `pr_reg`, in listing order.
@Suite struct RegisterLayoutTests {
    @Test(arguments: [CoreMachine.x86_64, CoreMachine.aarch64])
    func namesTakeTheirOwnWords(machine: CoreMachine) throws {
        let (kernelOrder, listed) = try #require(RegisterLayout.names(for: machine))
        let words = kernelOrder.indices.map { UInt64($0) * 0x1_0000_0001 + 7 }
        let registers = RegisterLayout.registers(words, machine: machine)
        #expect(registers.map(\.name) == listed)
        for register in registers {
            let position = try #require(kernelOrder.firstIndex(of: register.name))
            #expect(register.value == words[position], "\(register.name)")
        }
        #expect(RegisterLayout.registers(Array(words.dropLast()), machine: machine).isEmpty)
        #expect(RegisterLayout.registers(words, machine: .other(3)).isEmpty)
    }
}
