/// Apple's list of `NSExtensionPointIdentifier` values: the one place devkit keeps it. The
/// `extension.point` rule reads this list and nothing else; `ExtensionPointCatalogTests`
/// checks that every identifier here is accepted by the rule and a near miss of it refused
/// with it as the suggestion.
///
/// As with `PrivacyCatalog`, the page could not be fetched where this file was written (no
/// network): the list was written from what was known of Apple's page and of the Xcode
/// templates' Info.plists, and compared with independent public copies (app-extension
/// Info.plists in open-source apps, tools that generate extension targets), on the date in
/// `source`. When Apple adds an extension point, add it here with its date; until then a
/// project can accept it with the rule's `known_points` option.
///
/// ExtensionKit points (`EXAppExtensionAttributes` → `EXExtensionPointIdentifier`) are not
/// listed: apps define their own, so any name is valid there.
public enum ExtensionPointCatalog {
    public static let source = PrivacyCatalog.Source(
        url: "https://developer.apple.com/documentation/bundleresources/information-property-list/nsextension/nsextensionpointidentifier",
        read: "2026-11-25, as known (the page was not reachable; compared with independent copies of the list)")

    /// One extension point: its identifier and what Apple calls the extension.
    public struct Point: Sendable {
        public let identifier: String
        public let name: String
    }

    /// The `NSExtension` extension points, grouped by what they extend.
    public static let points: [Point] = [
        // Widgets and Home Screen
        .init(identifier: "com.apple.widgetkit-extension", name: "Widget (WidgetKit)"),
        .init(identifier: "com.apple.widget-extension", name: "Today widget (deprecated)"),
        // Sharing and actions
        .init(identifier: "com.apple.share-services", name: "Share"),
        .init(identifier: "com.apple.ui-services", name: "Action (with a user interface)"),
        .init(identifier: "com.apple.services", name: "Action (without a user interface)"),
        // Input, photos, files
        .init(identifier: "com.apple.keyboard-service", name: "Custom keyboard"),
        .init(identifier: "com.apple.photo-editing", name: "Photo editing"),
        .init(identifier: "com.apple.photo-project", name: "Photos project (macOS)"),
        .init(identifier: "com.apple.fileprovider-nonui", name: "File Provider"),
        .init(identifier: "com.apple.fileprovider-ui", name: "Document picker (File Provider UI)"),
        .init(identifier: "com.apple.fileprovider-actionsui", name: "File Provider actions UI"),
        .init(identifier: "com.apple.quicklook.preview", name: "Quick Look preview"),
        .init(identifier: "com.apple.quicklook.thumbnail", name: "Thumbnail"),
        .init(identifier: "com.apple.spotlight.index", name: "Spotlight index"),
        .init(identifier: "com.apple.spotlight.import", name: "Spotlight import"),
        .init(identifier: "com.apple.FinderSync", name: "Finder Sync (macOS)"),
        // Notifications, Siri, messages, calls
        .init(identifier: "com.apple.usernotifications.service", name: "Notification service"),
        .init(identifier: "com.apple.usernotifications.content-extension", name: "Notification content"),
        .init(identifier: "com.apple.intents-service", name: "Intents"),
        .init(identifier: "com.apple.intents-ui-service", name: "Intents UI"),
        .init(identifier: "com.apple.appintents-extension", name: "App Intents"),
        .init(identifier: "com.apple.message-payload-provider", name: "iMessage app or sticker pack"),
        .init(identifier: "com.apple.callkit.call-directory", name: "Call Directory"),
        .init(identifier: "com.apple.identitylookup.message-filter", name: "Message filter"),
        .init(identifier: "com.apple.identitylookup.classification-ui", name: "Unwanted communication reporting"),
        .init(identifier: "com.apple.calendar.virtualconference", name: "Virtual conference (Calendar)"),
        .init(identifier: "com.apple.email.extension", name: "Mail (macOS)"),
        // Safari
        .init(identifier: "com.apple.Safari.content-blocker", name: "Content blocker"),
        .init(identifier: "com.apple.Safari.web-extension", name: "Safari web extension"),
        .init(identifier: "com.apple.Safari.extension", name: "Safari app extension (macOS)"),
        // Accounts, passwords, wallet, tokens
        .init(identifier: "com.apple.authentication-services-credential-provider-ui", name: "AutoFill credential provider"),
        .init(identifier: "com.apple.authentication-services-account-authentication-modification-ui", name: "Account authentication modification"),
        .init(identifier: "com.apple.PassKit.issuer-provider", name: "Wallet issuer provider (non-UI)"),
        .init(identifier: "com.apple.PassKit.issuer-provider-ui", name: "Wallet issuer provider UI"),
        .init(identifier: "com.apple.ctk-tokens", name: "CryptoTokenKit token"),
        // Media
        .init(identifier: "com.apple.broadcast-services-upload", name: "Broadcast upload"),
        .init(identifier: "com.apple.broadcast-services-setupui", name: "Broadcast setup UI"),
        .init(identifier: "com.apple.AudioUnit", name: "Audio Unit"),
        .init(identifier: "com.apple.AudioUnit-UI", name: "Audio Unit with a user interface"),
        .init(identifier: "com.apple.tv-top-shelf", name: "TV top shelf (tvOS)"),
        // Networking and location
        .init(identifier: "com.apple.networkextension.packet-tunnel", name: "Packet tunnel provider"),
        .init(identifier: "com.apple.networkextension.app-proxy", name: "App proxy provider"),
        .init(identifier: "com.apple.networkextension.filter-data", name: "Content filter (data)"),
        .init(identifier: "com.apple.networkextension.filter-control", name: "Content filter (control)"),
        .init(identifier: "com.apple.networkextension.dns-proxy", name: "DNS proxy provider"),
        .init(identifier: "com.apple.location.push.service", name: "Location push service"),
        // Screen Time, education, home, downloads, development
        .init(identifier: "com.apple.deviceactivity.monitor-extension", name: "Device activity monitor"),
        .init(identifier: "com.apple.ManagedSettings.shield-action-service", name: "Shield action"),
        .init(identifier: "com.apple.ManagedSettingsUI.shield-configuration-service", name: "Shield configuration"),
        .init(identifier: "com.apple.classkit.context-provider", name: "ClassKit context provider"),
        .init(identifier: "com.apple.matter.support.extension.device-setup", name: "Matter device setup"),
        .init(identifier: "com.apple.background-asset-downloader-extension", name: "Background Assets downloader"),
        .init(identifier: "com.apple.dt.Xcode.extension.source-editor", name: "Xcode source editor (macOS)"),
        .init(identifier: "com.apple.watchkit", name: "WatchKit extension (watchOS 1 to 6 layout)"),
    ]

    /// The identifiers alone, for lookups and suggestions.
    public static let identifiers: [String] = points.map(\.identifier)
    static let identifierSet = Set(identifiers)

    /// Whether `identifier` is one of the listed points.
    public static func isKnown(_ identifier: String) -> Bool { identifierSet.contains(identifier) }
}
