/// How the checked product was built (`--configuration`).
public enum BuildConfiguration: String, Sendable, Hashable, CaseIterable {
    case debug, release
}
