import Diagnostics
import OrderedCollections
import PlistTools
import PropertyList

/// Renders a read profile for people (text) and machines: a property-list value, which the
/// provisioning rules check and `ProfileInspector.json` prints as JSON.
public struct ProfileReport: Sendable {
    /// The instant "expires in 12 days" is measured from.
    public var now: PlistDate
    public var listsDevices: Bool
    public var listsEntitlements: Bool

    public init(now: PlistDate, listsDevices: Bool = false, listsEntitlements: Bool = false) {
        self.now = now
        self.listsDevices = listsDevices
        self.listsEntitlements = listsEntitlements
    }

    /// A readable summary; `source` is the name shown on the first line.
    public func text(_ signed: SignedProfile, source: String, app: AppBundle? = nil, binary: BinaryEntitlements? = nil) -> String {
        let p = signed.profile
        var lines = [source]
        func row(_ label: String, _ value: String) {
            lines.append("  " + label + String(repeating: " ", count: max(1, 14 - label.count)) + TerminalText.escaped(value))
        }
        row("Name", p.name)
        row("Type", p.kind.displayName)
        row("UUID", p.uuid)
        row("App ID", [p.appIDName, p.applicationIdentifier.map { "(\($0))" }].compactMap { $0 }.joined(separator: " "))
        row("Team", [p.teamName, p.teamIdentifiers.isEmpty ? nil : "(\(p.teamIdentifiers.joined(separator: ", ")))"].compactMap { $0 }.joined(separator: " "))
        row("Platforms", p.platforms.joined(separator: ", "))
        if let created = p.creationDate { row("Created", created.iso8601) }
        row("Expires", "\(p.expirationDate.iso8601) (\(relative(days: p.daysUntilExpiry(at: now), expired: p.isExpired(at: now))))")
        if let ttl = p.timeToLive { row("Time to live", "\(ttl) days") }
        row("Devices", p.provisionsAllDevices ? "all (ProvisionsAllDevices)" : "\(p.provisionedDevices.count)")
        if listsDevices {
            for device in p.provisionedDevices { lines.append("    \(device)") }
        }
        row("get-task-allow", p.getTaskAllow.map { String($0) } ?? "absent")
        row("Entitlements", "\(p.entitlements.count) \(p.entitlements.count == 1 ? "key" : "keys")")
        if listsEntitlements {
            let printed = PlistPrinter(style: .tree).render(.dictionary(p.entitlements))
            for line in printed.split(separator: "\n", omittingEmptySubsequences: false) where !line.isEmpty {
                lines.append("    \(line)")
            }
        }
        row("Certificates", "\(p.developerCertificates.count)")
        for certificate in p.developerCertificates {
            switch certificate {
            case .parsed(let c):
                let state = c.isExpired(at: now) ? "expired" : "valid"
                lines.append("    \(c.commonName)")
                lines.append("      serial \(c.serialNumber), \(state) \(c.notValidBefore.iso8601) to \(c.notValidAfter.iso8601)")
                lines.append("      SHA-1 \(c.sha1Fingerprint)")
            case .unreadable(let index, let reason):
                lines.append("    certificate \(index) does not parse: \(reason)")
            }
        }
        row("Encoding", signed.encoding.rawValue)
        row("Signature", signed.signature.summary)
        if !signed.signature.signerChain.isEmpty {
            row("Signed by", signed.signature.signerChain.map(\.commonName).joined(separator: " <- "))
        }
        if let app {
            let version = [app.shortVersion, app.bundleVersion.map { "(\($0))" }].compactMap { $0 }.joined(separator: " ")
            row("App", [app.bundleIdentifier ?? "(no CFBundleIdentifier)", version].filter { !$0.isEmpty }.joined(separator: " "))
            if let binary, case .dictionary(let e) = binary.entitlements {
                let forms = [binary.hasXML ? "XML" : nil, binary.hasDER ? "DER" : nil].compactMap { $0 }.joined(separator: " and ")
                row("Binary", "\(app.executableName ?? "") (\(binary.architecture)): \(e.count) entitlement \(e.count == 1 ? "key" : "keys") (\(forms))")
                if listsEntitlements {
                    for line in PlistPrinter(style: .tree).render(binary.entitlements).split(separator: "\n") where !line.isEmpty {
                        lines.append("    \(line)")
                    }
                }
            } else {
                row("Binary", app.executable == nil ? "not found" : "no entitlements in its code signature")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    func relative(days: Int, expired: Bool) -> String {
        if expired {
            let ago = -days
            return ago <= 0 ? "expired today" : "expired \(ago) \(ago == 1 ? "day" : "days") ago"
        }
        return days == 0 ? "expires today" : "expires in \(days) \(days == 1 ? "day" : "days")"
    }

    /// Every field, as a dictionary: the provisioning rules' subject, and what `provision inspect`
    /// prints as JSON.
    public func value(_ signed: SignedProfile, source: String, app: AppBundle? = nil, binary: BinaryEntitlements? = nil) -> PlistValue {
        let p = signed.profile
        var d: OrderedDictionary<String, PlistValue> = [:]
        d["file"] = .string(source)
        d["name"] = .string(p.name)
        d["type"] = .string(p.kind.rawValue)
        d["uuid"] = .string(p.uuid)
        d["appIDName"] = p.appIDName.map(PlistValue.string)
        d["applicationIdentifier"] = p.applicationIdentifier.map(PlistValue.string)
        d["teamName"] = p.teamName.map(PlistValue.string)
        d["teamIdentifiers"] = .array(p.teamIdentifiers.map(PlistValue.string))
        d["applicationIdentifierPrefixes"] = .array(p.applicationIdentifierPrefixes.map(PlistValue.string))
        d["platforms"] = .array(p.platforms.map(PlistValue.string))
        d["creationDate"] = p.creationDate.map(PlistValue.date)
        d["expirationDate"] = .date(p.expirationDate)
        d["expired"] = .bool(p.isExpired(at: now))
        d["daysUntilExpiry"] = .int(Int64(p.daysUntilExpiry(at: now)))
        d["timeToLive"] = p.timeToLive.map { .int($0) }
        d["getTaskAllow"] = p.getTaskAllow.map(PlistValue.bool)
        d["provisionsAllDevices"] = .bool(p.provisionsAllDevices)
        d["provisionedDevices"] = .array(p.provisionedDevices.map(PlistValue.string))
        d["entitlements"] = .dictionary(p.entitlements)
        d["developerCertificates"] = .array(p.developerCertificates.map { certificate in
            switch certificate {
            case .parsed(let c): certificateValue(c)
            case .unreadable(let index, let reason): .dictionary(["index": .int(Int64(index)), "error": .string(reason)])
            }
        })
        d["encoding"] = .string(signed.encoding.rawValue)
        var signature: OrderedDictionary<String, PlistValue> = [:]
        signature["valid"] = .bool(signed.signature.isValid)
        signature["failure"] = signed.signature.failure.map(PlistValue.string)
        signature["digest"] = step(signed.signature.digest)
        signature["signature"] = step(signed.signature.signature)
        switch signed.signature.chain {
        case .notVerified: signature["chain"] = .string("not verified (no trust roots given)")
        case .trusted(let root): signature["chain"] = .string("verified"); signature["trustedRoot"] = .string(root)
        case .untrusted(let why): signature["chain"] = .string("untrusted: \(why)")
        }
        signature["signerChain"] = .array(signed.signature.signerChain.map(certificateValue))
        d["signature"] = .dictionary(signature)
        if let app { d["app"] = appValue(app, binary: binary) }
        return .dictionary(d)
    }

    /// A bare binary's entitlements, as `codesign -d --entitlements -` shows them.
    public func text(binary: BinaryEntitlements?, source: String) -> String {
        guard let binary, case .dictionary(let e) = binary.entitlements else {
            return "\(source)\n  Binary        no entitlements in its code signature (or not signed)\n"
        }
        let forms = [binary.hasXML ? "XML" : nil, binary.hasDER ? "DER" : nil].compactMap { $0 }.joined(separator: " and ")
        var lines = [source, "  Binary        \(binary.architecture): \(e.count) entitlement \(e.count == 1 ? "key" : "keys") (\(forms))"]
        for line in PlistPrinter(style: .tree).render(binary.entitlements).split(separator: "\n") where !line.isEmpty {
            lines.append("    \(line)")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    public func value(binary: BinaryEntitlements?, source: String) -> PlistValue {
        var d: OrderedDictionary<String, PlistValue> = ["file": .string(source)]
        d["architecture"] = binary.map { .string($0.architecture) }
        d["binaryEntitlements"] = binary?.entitlements
        return .dictionary(d)
    }

    /// An app without a profile: only what the app says (for lint rules and JSON).
    public func value(app: AppBundle, binary: BinaryEntitlements?) -> PlistValue {
        .dictionary(["file": .string(app.location), "app": appValue(app, binary: binary)])
    }

    /// The `app` entry: what the app's Info.plist and code signature say.
    private func appValue(_ app: AppBundle, binary: BinaryEntitlements?) -> PlistValue {
        var a: OrderedDictionary<String, PlistValue> = [:]
        a["location"] = .string(app.location)
        a["bundleIdentifier"] = app.bundleIdentifier.map(PlistValue.string)
        a["shortVersion"] = app.shortVersion.map(PlistValue.string)
        a["bundleVersion"] = app.bundleVersion.map(PlistValue.string)
        a["executable"] = app.executableName.map(PlistValue.string)
        a["binaryEntitlements"] = binary?.entitlements
        return .dictionary(a)
    }

    private func step(_ result: StepResult) -> PlistValue {
        switch result {
        case .valid: .string("valid")
        case .invalid(let why): .string("invalid: \(why)")
        }
    }

    private func certificateValue(_ c: CertificateSummary) -> PlistValue {
        var d: OrderedDictionary<String, PlistValue> = [:]
        d["commonName"] = .string(c.commonName)
        d["organizationalUnit"] = c.organizationalUnit.map(PlistValue.string)
        d["issuer"] = .string(c.issuerCommonName)
        d["serialNumber"] = .string(c.serialNumber)
        d["sha1"] = .string(c.sha1Fingerprint)
        d["sha256"] = .string(c.sha256Fingerprint)
        d["notValidBefore"] = .date(c.notValidBefore)
        d["notValidAfter"] = .date(c.notValidAfter)
        d["expired"] = .bool(c.isExpired(at: now))
        d["daysUntilExpiry"] = .int(Int64(((c.notValidAfter.secondsSinceReferenceDate - now.secondsSinceReferenceDate) / 86_400).rounded(.down)))
        return .dictionary(d)
    }
}
