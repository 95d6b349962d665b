/// A problem with an input or an operation, in the one shape every devkit error takes: which
/// file, where in it, how serious, what was wrong, and a kind that code can switch on.
///
/// Every module's error type converts to it (`DiagnosticConvertible`), and `description` is
/// the one place that renders it, compiler style:
/// `file:line:col: error: message`, `file: offset 0x1a2: error: message`, `file: error: message`.
public struct Diagnostic: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file as the user named it (`<stdin>` for standard input); nil when there is none.
    public var file: String?
    /// Where in the file, when the problem has a place.
    public var position: SourcePosition?
    public var severity: Severity
    /// What was wrong, for a person: one line, no file or position (those are rendered from the fields).
    public var message: String
    /// What kind of problem it is, for callers that handle some kinds differently.
    public var kind: DiagnosticKind

    public init(file: String? = nil, position: SourcePosition? = nil, severity: Severity = .error,
                message: String, kind: DiagnosticKind = .input) {
        self.file = file
        self.position = position
        self.severity = severity
        self.message = message
        self.kind = kind
    }

    /// `file:line:col: error: message`, `file: offset 0x1a2: error: message`, `file: error: message`
    /// or `error: message`; control characters in the file name and message escaped
    /// (`TerminalText`), so the rendering is one line whatever the input held.
    public var description: String {
        let message = TerminalText.escaped(message)
        guard let location else { return "\(severity): \(message)" }
        return "\(location): \(severity): \(message)"
    }

    /// `file:line:col`, `file:line`, `file: offset 0x1a2`, `file`, `line:col`, `offset 0x1a2`, or nil.
    public var location: String? {
        switch (file.map(TerminalText.escaped), position) {
        case (let file?, .text(let line, let column)?): "\(file):\(line):\(column)"
        case (let file?, .line(let line)?): "\(file):\(line)"
        case (let file?, let position?): "\(file): \(position)"
        case (let file?, nil): file
        case (nil, let position?): position.description
        case (nil, nil): nil
        }
    }

    /// The same diagnostic in `file`, unless it already names one.
    public func inFile(_ name: String) -> Diagnostic {
        var copy = self
        if copy.file == nil { copy.file = name }
        return copy
    }
}
