import System

/// One progress line on a terminal's stderr (`reading 45% (120 MB of 266 MB)`), rewritten in
/// place with `\r`. Silent unless stderr is a terminal: pipes, logs and tests see nothing.
public final class HeapdiffProgress {
    private let enabled: Bool
    private var lastDraw: Double?
    private var shown = false

    /// At most ten redraws a second: a terminal cannot show more, and each costs a write.
    private static let interval = 0.1

    /// The first update draws at once (then at most every interval), so a terminal shows
    /// what is happening from the start and tests can rely on seeing it.
    public init(enabled: Bool = Terminal.isTerminal(2)) {
        self.enabled = enabled
    }

    /// `reading 45% (120 MB of 266 MB)`.
    public func bytes(_ phase: String, _ done: Int, of total: Int) {
        update { "\(phase) \(Self.percent(done, total)) (\(Self.megabytes(done)) of \(Self.megabytes(total)))" }
    }

    /// `replaying 45% (1.2M of 2.6M events)`.
    public func events(_ phase: String, _ done: Int, of total: Int) {
        update { "\(phase) \(Self.percent(done, total)) (\(Self.millions(done)) of \(Self.millions(total)) events)" }
    }

    /// Erases the line, before other output or at the end.
    public func clear() {
        guard shown else { return }
        shown = false
        emit("\r\u{1B}[K")
    }

    private func update(_ text: () -> String) {
        guard enabled else { return }
        let now = MonotonicClock.seconds()
        if let lastDraw, now - lastDraw < Self.interval { return }
        lastDraw = now
        shown = true
        emit("\r" + text() + "\u{1B}[K")
    }

    private func emit(_ text: String) {
        FileIO.writeStandardError(Array(text.utf8))
    }

    private static func percent(_ done: Int, _ total: Int) -> String {
        total > 0 ? "\(min(done, total) * 100 / total)%" : "0%"
    }

    private static func megabytes(_ bytes: Int) -> String { "\((bytes + 500_000) / 1_000_000) MB" }

    private static func millions(_ count: Int) -> String {
        let tenths = (count + 50_000) / 100_000
        return "\(tenths / 10).\(tenths % 10)M"
    }
}
