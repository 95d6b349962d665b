public struct CrashRegister: Hashable, Sendable {
    public var name: String
    public var value: UInt64

    public init(name: String, value: UInt64) {
        self.name = name
        self.value = value
    }
}
