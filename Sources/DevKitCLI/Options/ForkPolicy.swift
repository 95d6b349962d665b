import ArgumentParser

/// `heap record --fork`: what becomes of a forked child, stop recording it or follow it into
/// OUTPUT.PID.
enum ForkPolicy: String, ExpressibleByArgument, CaseIterable {
    case stop, follow
}
