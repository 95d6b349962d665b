import OrderedCollections
import PropertyList

/// How a profile distributes an app.
public enum ProfileKind: String, Sendable, CaseIterable {
    /// Listed devices, `get-task-allow` true: the debugger may attach.
    case development
    /// Listed devices, no `get-task-allow`: testers' devices.
    case adHoc = "adhoc"
    /// `ProvisionsAllDevices`: in-house distribution.
    case enterprise
    /// Neither devices nor all devices: the App Store (and TestFlight).
    case appStore = "appstore"

    public var displayName: String {
        switch self {
        case .development: "Development"
        case .adHoc: "Ad Hoc"
        case .enterprise: "Enterprise"
        case .appStore: "App Store"
        }
    }
}
