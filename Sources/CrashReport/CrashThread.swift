public struct CrashThread: Hashable, Sendable {
    public var index: Int
    public var name: String?
    public var crashed: Bool
    public var frames: [CrashFrame] = []
    /// Register name and value, in the order the report lists them.
    public var registers: [CrashRegister] = []

    public init(index: Int, name: String? = nil, crashed: Bool = false) {
        self.index = index
        self.name = name
        self.crashed = crashed
    }
}
