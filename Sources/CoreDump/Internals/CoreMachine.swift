/// The ELF machines devkit names registers for (`e_machine`).
enum CoreMachine: Equatable {
    case x86_64, aarch64, other(UInt16)

    /// The DWARF register number of the stack pointer, used to spot unwinding loops.
    var stackPointerDWARFRegister: UInt32? {
        switch self {
        case .x86_64: 7
        case .aarch64: 31
        case .other: nil
        }
    }
}

extension CoreMachine {
    /// The architecture as devkit reports it.
    var name: String {
        switch self {
        case .x86_64: "x86_64"
        case .aarch64: "arm64"
        case .other(let machine): "e_machine \(machine)"
        }
    }
}
