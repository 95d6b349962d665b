import BinaryReading

/// `NT_PRPSINFO`: the process's short name and pid.
struct ProcessInfoNote {
    /// `pr_fname`: the executable's base name, cut at 15 bytes by the kernel.
    var name: String
    /// `pr_pid`.
    var pid: Int64
    /// `pr_psargs`: the command line, cut at 79 bytes, arguments joined by spaces.
    var arguments: String

    init?(_ bytes: [UInt8]) {
        guard let (pid, name, arguments) = readDescriptor(bytes, "NT_PRPSINFO", { cursor throws(DecodeError) in
            try cursor.seek(to: 24)
            let pid = try cursor.read(UInt32.self, endian: .little)
            try cursor.seek(to: 40)
            let name = fixedString(try cursor.readBytes(16))
            let arguments = fixedString(try cursor.readBytes(80))
            return (pid, name, arguments)
        }) else { return nil }
        self.pid = Int64(Int32(bitPattern: pid))
        self.name = name
        self.arguments = arguments
    }
}
