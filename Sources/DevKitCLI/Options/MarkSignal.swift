import ArgumentParser

/// A signal by name (`USR2`, `SIGUSR2`), number, or `none`: `heap record --mark-signal` and
/// `heap mark --signal`.
struct MarkSignal: ExpressibleByArgument, Equatable {
    var number: Int32

    init(number: Int32) { self.number = number }

    init?(argument: String) {
        let names: [String: Int32] = ["USR1": 10, "USR2": 12, "HUP": 1, "INT": 2, "QUIT": 3, "TERM": 15, "WINCH": 28, "NONE": 0]
        var name = argument.uppercased()
        if name.hasPrefix("SIG") { name.removeFirst(3) }
        if let known = names[name] { number = known } else if let value = Int32(argument), (1...64).contains(value) {
            number = value
        } else {
            return nil
        }
    }

    var defaultValueDescription: String { number == 12 ? "USR2" : String(number) }
}
