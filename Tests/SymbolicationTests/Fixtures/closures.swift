// Swift fixture for the oracle tests: closures defined inside methods of a class, a struct and
// an extension, capturing values and self (swiftc -g -O at test time).
final class Ledger {
    var entries: [Int] = []
    var observers: [(Int) -> Int] = []

    @inline(never) func record(_ amount: Int) -> Int {
        observers.append { [amount] total in total &* 31 &+ amount }
        entries.append(amount)
        return observers.reduce(amount) { partial, observer in observer(partial) }
    }
}

struct Totals {
    var values: [Int]

    @inline(never) func scaled(by factor: Int) -> [Int] {
        values.lazy.filter { $0 % 3 != 0 }.map { $0 &* factor &+ self.values.count }
    }
}

extension Totals {
    @inline(never) func summary() -> String {
        let parts = scaled(by: 7).map { value -> String in value > 10 ? "big \(value)" : "small \(value)" }
        return parts.joined(separator: ",")
    }
}

let ledger = Ledger()
var sum = 0
for i in 0..<CommandLine.arguments.count * 5 { sum &+= ledger.record(i) }
print(sum, Totals(values: Array(0..<CommandLine.arguments.count * 9)).summary())
