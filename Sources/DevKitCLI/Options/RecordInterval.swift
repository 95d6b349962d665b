import ArgumentParser

/// `heap record --interval`: seconds, with an optional unit: `10`, `0.5s`, `250ms`, `2m`.
struct RecordInterval: ExpressibleByArgument, Equatable {
    var seconds: Double

    init?(argument: String) {
        var text = Substring(argument)
        var scale = 1.0
        if text.hasSuffix("ms") { scale = 0.001; text = text.dropLast(2) }
        else if text.hasSuffix("s") { text = text.dropLast() }
        else if text.hasSuffix("m") { scale = 60; text = text.dropLast() }
        guard let value = Double(text), value > 0, value.isFinite else { return nil }
        seconds = value * scale
    }
}
