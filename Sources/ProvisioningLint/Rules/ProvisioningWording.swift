import Provisioning

/// How the provisioning rules word days and profile types in their messages.
enum ProvisioningWording {
    /// "in 3 days", "3 days ago", "today".
    static func relativeDays(_ days: Int) -> String {
        if days == 0 { return "today" }
        let n = abs(days), unit = n == 1 ? "day" : "days"
        return days < 0 ? "\(n) \(unit) ago" : "in \(n) \(unit)"
    }

    /// "an App Store profile", "a development profile": the type as a person says it.
    static func profileType(_ raw: String) -> String {
        guard let kind = ProfileKind(rawValue: raw) else { return "a \(raw) profile" }
        let name = kind == .development ? "development" : kind.displayName
        let article = ["A", "E", "I", "O", "U"].contains(name.prefix(1).uppercased()) ? "an" : "a"
        return "\(article) \(name) profile"
    }
}
