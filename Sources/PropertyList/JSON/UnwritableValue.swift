/// A value the emitter could not write, with the path to it (filled in, innermost first,
/// only as the error travels out).
struct UnwritableValue: Error {
    enum Step {
        case key(String)
        case index(Int)
    }

    var reversedPath: [Step] = []
    var reason: String

    /// `root["items"][2]: reason`.
    var description: String {
        var path = "root"
        for step in reversedPath.reversed() {
            switch step {
            case .key(let key): path += "[\"\(key.prefix(60))\"]"
            case .index(let index): path += "[\(index)]"
            }
        }
        return "\(path): \(reason)"
    }
}

extension UnwritableValue {
    func adding(_ step: Step) -> UnwritableValue {
        var copy = self
        copy.reversedPath.append(step)
        return copy
    }
}
