import OrderedCollections
import PropertyList

/// The over-the-air install manifest (`itms-services`) for an app and the page linking to it.
public struct OTAManifest: Sendable {
    public var ipaURL: String
    public var manifestURL: String
    public var displayImageURL: String?
    public var fullSizeImageURL: String?
    public var bundleIdentifier: String
    public var bundleVersion: String
    public var title: String

    /// Checks every URL is https and takes the metadata from the app's Info.plist.
    /// `manifestURL` nil: `manifest.plist` beside the .ipa.
    public init(app: AppBundle, ipaURL: String, manifestURL: String? = nil, displayImageURL: String? = nil, fullSizeImageURL: String? = nil) throws(ProvisioningError) {
        let manifest = manifestURL ?? Self.sibling(of: ipaURL, named: "manifest.plist")
        let urls: [(String, String?)] = [("--url", ipaURL), ("--manifest-url", manifest), ("--display-image", displayImageURL), ("--full-size-image", fullSizeImageURL)]
        for (option, url) in urls {
            guard let url else { continue }
            try Self.checkHTTPS(url, option: option)
        }
        guard let bundleIdentifier = app.bundleIdentifier else {
            throw ProvisioningError(file: app.location, message: "the app's Info.plist has no CFBundleIdentifier")
        }
        guard let version = app.shortVersion ?? app.bundleVersion else {
            throw ProvisioningError(file: app.location, message: "the app's Info.plist has no CFBundleShortVersionString or CFBundleVersion")
        }
        self.ipaURL = ipaURL
        self.manifestURL = manifest
        self.displayImageURL = displayImageURL
        self.fullSizeImageURL = fullSizeImageURL
        self.bundleIdentifier = bundleIdentifier
        self.bundleVersion = version
        self.title = app.displayName ?? app.executableName ?? bundleIdentifier
    }

    /// iOS installs over the air only from https, and the URL goes into HTML and a plist:
    /// refuse anything that is not a plain https URL with a host.
    static func checkHTTPS(_ url: String, option: String) throws(ProvisioningError) {
        let lower = url.lowercased()
        guard lower.hasPrefix("https://") else {
            throw ProvisioningError(message: "\(option) \(url): over-the-air installs need an https:// URL")
        }
        let rest = url.dropFirst("https://".count)
        let host = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        guard !host.isEmpty else {
            throw ProvisioningError(message: "\(option) \(url): the URL has no host")
        }
        guard !url.contains(where: { $0.isWhitespace || "\"'<>\\`".contains($0) || $0.asciiValue.map { $0 < 0x20 } == true }) else {
            throw ProvisioningError(message: "\(option) \(url): the URL contains spaces, quotes or angle brackets; percent-encode them")
        }
    }

    static func sibling(of url: String, named name: String) -> String {
        guard let slash = url.lastIndex(of: "/") else { return name }
        return String(url[...slash]) + name
    }

    /// `items` / `assets` (software-package, display-image, full-size-image) / `metadata`.
    public var plist: PlistValue {
        var assets: [PlistValue] = [.dictionary(["kind": .string("software-package"), "url": .string(ipaURL)])]
        if let displayImageURL { assets.append(.dictionary(["kind": .string("display-image"), "url": .string(displayImageURL)])) }
        if let fullSizeImageURL { assets.append(.dictionary(["kind": .string("full-size-image"), "url": .string(fullSizeImageURL)])) }
        let metadata: OrderedDictionary<String, PlistValue> = [
            "bundle-identifier": .string(bundleIdentifier),
            "bundle-version": .string(bundleVersion),
            "kind": .string("software"),
            "title": .string(title),
        ]
        return .dictionary(["items": .array([.dictionary(["assets": .array(assets), "metadata": .dictionary(metadata)])])])
    }

    /// The install link: the manifest URL percent-encoded as the `url` query value.
    public var installLink: String {
        "itms-services://?action=download-manifest&url=" + Self.percentEncodeQueryValue(manifestURL)
    }

    /// A minimal page with the install link (Safari on the device follows it).
    public var html: String {
        let title = MarkupText.escape(self.title)
        return """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>Install \(title)</title>
            </head>
            <body>
            <h1>\(title)</h1>
            <p>Version \(MarkupText.escape(bundleVersion)) (\(MarkupText.escape(bundleIdentifier)))</p>
            <p><a href="\(MarkupText.escape(installLink))">Install \(title)</a></p>
            </body>
            </html>

            """
    }

    /// RFC 3986 unreserved characters stay; everything else is %XX (UTF-8).
    static func percentEncodeQueryValue(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.append(Character(UnicodeScalar(byte)))
            default:
                let hex = Array("0123456789ABCDEF")
                out += "%" + String(hex[Int(byte >> 4)]) + String(hex[Int(byte & 0xf)])
            }
        }
        return out
    }
}
