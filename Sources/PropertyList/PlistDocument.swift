/// What a reader produced: the value, the format it was in, and any warnings.
public struct PlistDocument: Sendable {
    public var value: PlistValue
    public var format: PlistFormat
    public var warnings: [PlistWarning]
}
