import LintKit
import PropertyList

/// UIRequiredDeviceCapabilities lists only capabilities iOS knows.
public struct DeviceCapabilities: LintRule {
    /// From Apple's UIRequiredDeviceCapabilities reference.
    static let known: Set<String> = [
        "accelerometer", "arkit", "armv7", "arm64", "auto-focus-camera", "bluetooth-le", "camera-flash",
        "front-facing-camera", "gamekit", "gps", "gyroscope", "healthkit", "iphone-ipad-minimum-performance-a12",
        "iphone-performance-gaming-tier", "location-services", "magnetometer", "metal", "microphone", "nfc",
        "opengles-1", "opengles-2", "opengles-3", "peer-peer", "sms", "still-camera", "telephony", "video-camera", "wifi",
    ]

    public static let description = RuleDescription(
        id: "infoplist.device-capabilities", category: .infoPlist, severity: .warning,
        summary: "UIRequiredDeviceCapabilities lists only known capability names.",
        rationale: """
            The App Store uses these names to decide which devices may install the app; a \
            misspelled one ("camera", "bluetooth") is not a capability any device has, so the \
            app may be offered to no device or rejected at upload. Capabilities can only be \
            added in updates, never removed, so a wrong one is hard to take back.
            """,
        kinds: [.infoPlist],
        triggering: [
            RuleExample("<key>UIRequiredDeviceCapabilities</key>\n<array>\n\t<string>arm64</string>\n\t↓<string>bluetooth</string>\n</array>"),
            RuleExample("<key>UIRequiredDeviceCapabilities</key>\n<dict>\n\t↓<key>metall</key>\n\t<true/>\n</dict>"),
        ],
        nonTriggering: [
            RuleExample("<key>UIRequiredDeviceCapabilities</key>\n<array>\n\t<string>arm64</string>\n\t<string>metal</string>\n</array>"),
            RuleExample("<key>UIRequiredDeviceCapabilities</key>\n<dict>\n\t<key>nfc</key>\n\t<true/>\n</dict>"),
        ])

    public init() {}

    public func check(_ file: LintFile, _ context: inout RuleContext) {
        let key = "UIRequiredDeviceCapabilities"
        var names: [(String, KeyPath)] = []
        switch file[key] {
        case .array(let items)?:
            for (i, item) in items.enumerated() {
                guard let name = item.stringValue else {
                    context.report("\(key) items must be strings, not \(item.typeName)", at: KeyPath([key, String(i)]))
                    continue
                }
                names.append((name, KeyPath([key, String(i)])))
            }
        case .dictionary(let entries)?:
            names = entries.keys.map { ($0, KeyPath([key, $0])) }
        case let other?:
            context.report("\(key) must be an array or a dictionary, not \(other.typeName)", key: key)
        case nil:
            return
        }
        for (name, path) in names where !Self.known.contains(name) {
            let hint = EditDistance.closest(to: name, in: Self.known.sorted()).map { "; did you mean \"\($0)\"?" } ?? ""
            context.report("unknown device capability \"\(name)\"\(hint)", at: path)
        }
    }
}
