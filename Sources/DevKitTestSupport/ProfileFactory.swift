import Foundation

/// Makes provisioning profiles at test time with Debian's `openssl`: keys and certificates
/// in the style of Apple's, XML payloads for each profile type, and `openssl cms -sign`
/// output (DER, content attached). Nothing it makes is committed.
public final class ProfileFactory: @unchecked Sendable {
    public let directory: URL
    public let teamID = "ABCDE12345"

    /// Errors from running openssl, with its stderr.
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// A signer: certificate and key files (PEM) and optional extra certificates to embed.
    public struct Signer {
        public var certificate: URL
        public var key: URL
        public var chain: URL?
    }

    /// "Apple Development: Test Person (ABCDE12345)", self-signed (RSA 2048).
    public lazy var developer: Signer = make { try selfSigned("developer", subject: developerSubject, days: 3650) }
    /// A second self-signed certificate with the developer's subject and serial but another key.
    public lazy var impostor: Signer = make { try selfSigned("impostor", subject: developerSubject, days: 3650) }
    /// A test root CA and a "Provisioning Profile Signing" leaf it issued.
    public lazy var rootCA: Signer = make { try selfSigned("root", subject: "/CN=Test Root CA/O=devkit tests", days: 3650, ca: true) }
    public lazy var profileSigner: Signer = make { try issued("signer", subject: "/CN=Test Provisioning Profile Signing/O=devkit tests", by: rootCA) }
    /// Another root that issued nothing here.
    public lazy var otherRoot: Signer = make { try selfSigned("other-root", subject: "/CN=Other Root CA/O=devkit tests", days: 3650, ca: true) }

    private var developerSubject: String { "/CN=Apple Development: Test Person (\(teamID))/OU=\(teamID)/O=Test Person/C=US" }

    /// Certificates are made on first use (RSA key generation is the slow part); a failure
    /// there is a broken test machine, reported loudly.
    private func make(_ body: () throws -> Signer) -> Signer {
        do { return try body() } catch { fatalError("ProfileFactory: \(error)") }
    }

    public static var opensslAvailable: Bool {
        FileManager.default.isExecutableFile(atPath: "/usr/bin/openssl")
    }

    public init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("devkit-profiles-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    /// The DER bytes of a PEM certificate file.
    public func der(_ certificate: URL) throws -> Data {
        let out = directory.appendingPathComponent(UUID().uuidString + ".der")
        try openssl(["x509", "-in", certificate.path, "-outform", "DER", "-out", out.path])
        return try Data(contentsOf: out)
    }

    /// An XML profile payload. `devices` nil for none; `allDevices` for enterprise.
    public func payload(
        name: String = "Test Profile", bundleID: String = "com.example.app", getTaskAllow: Bool? = true,
        devices: [String]? = ["00008030-001A2B3C4D5E6F70"], allDevices: Bool = false,
        created: String = "2026-01-01T00:00:00Z", expires: String = "2027-01-01T00:00:00Z",
        extraEntitlements: String = ""
    ) throws -> String {
        let certificate = try der(developer.certificate).base64EncodedString()
        var entitlements = """
            \t\t<key>application-identifier</key>
            \t\t<string>\(teamID).\(bundleID)</string>
            \t\t<key>com.apple.developer.team-identifier</key>
            \t\t<string>\(teamID)</string>

            """
        if let getTaskAllow { entitlements += "\t\t<key>get-task-allow</key>\n\t\t<\(getTaskAllow)/>\n" }
        entitlements += extraEntitlements
        var devicesXML = ""
        if let devices {
            devicesXML = "\t<key>ProvisionedDevices</key>\n\t<array>\n" + devices.map { "\t\t<string>\($0)</string>\n" }.joined() + "\t</array>\n"
        }
        let all = allDevices ? "\t<key>ProvisionsAllDevices</key>\n\t<true/>\n" : ""
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">
            <dict>
            \t<key>AppIDName</key>
            \t<string>Example App</string>
            \t<key>ApplicationIdentifierPrefix</key>
            \t<array>
            \t\t<string>\(teamID)</string>
            \t</array>
            \t<key>CreationDate</key>
            \t<date>\(created)</date>
            \t<key>Platform</key>
            \t<array>
            \t\t<string>iOS</string>
            \t</array>
            \t<key>DeveloperCertificates</key>
            \t<array>
            \t\t<data>\(certificate)</data>
            \t</array>
            \t<key>Entitlements</key>
            \t<dict>
            \(entitlements)\t</dict>
            \t<key>ExpirationDate</key>
            \t<date>\(expires)</date>
            \t<key>Name</key>
            \t<string>\(name)</string>
            \(devicesXML)\(all)\t<key>TeamIdentifier</key>
            \t<array>
            \t\t<string>\(teamID)</string>
            \t</array>
            \t<key>TeamName</key>
            \t<string>Test Person</string>
            \t<key>TimeToLive</key>
            \t<integer>365</integer>
            \t<key>UUID</key>
            \t<string>11111111-2222-3333-4444-555555555555</string>
            \t<key>Version</key>
            \t<integer>1</integer>
            </dict>
            </plist>

            """
    }

    /// `openssl cms -sign -nodetach -outform DER -binary` of `payload` (SHA-256, signed attributes).
    public func sign(_ payload: String, with signer: Signer? = nil, extra: [String] = []) throws -> [UInt8] {
        let signer = signer ?? developer
        let input = directory.appendingPathComponent(UUID().uuidString + ".plist")
        let output = directory.appendingPathComponent(UUID().uuidString + ".mobileprovision")
        try Data(payload.utf8).write(to: input)
        var arguments = ["cms", "-sign", "-nodetach", "-outform", "DER", "-binary", "-md", "sha256",
                         "-in", input.path, "-signer", signer.certificate.path, "-inkey", signer.key.path, "-out", output.path]
        if let chain = signer.chain { arguments += ["-certfile", chain.path] }
        try openssl(arguments + extra)
        return [UInt8](try Data(contentsOf: output))
    }

    /// Writes `bytes` into the factory's directory and returns the path.
    public func write(_ bytes: [UInt8], name: String) throws -> URL {
        let url = directory.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url
    }

    // MARK: - openssl

    private func selfSigned(_ name: String, subject: String, days: Int, ca: Bool = false) throws -> Signer {
        let key = directory.appendingPathComponent("\(name).key"), cert = directory.appendingPathComponent("\(name).pem")
        var arguments = ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key.path, "-out", cert.path,
                         "-days", "\(days)", "-subj", subject, "-set_serial", "4660"]
        arguments += ca ? ["-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign"]
                        : ["-addext", "basicConstraints=critical,CA:FALSE", "-addext", "keyUsage=critical,digitalSignature"]
        try openssl(arguments)
        return Signer(certificate: cert, key: key, chain: nil)
    }

    private func issued(_ name: String, subject: String, by issuer: Signer) throws -> Signer {
        let key = directory.appendingPathComponent("\(name).key"), csr = directory.appendingPathComponent("\(name).csr")
        let cert = directory.appendingPathComponent("\(name).pem"), ext = directory.appendingPathComponent("\(name).ext")
        try Data("basicConstraints=critical,CA:FALSE\nkeyUsage=critical,digitalSignature\n".utf8).write(to: ext)
        try openssl(["req", "-new", "-newkey", "rsa:2048", "-nodes", "-keyout", key.path, "-out", csr.path, "-subj", subject])
        try openssl(["x509", "-req", "-in", csr.path, "-CA", issuer.certificate.path, "-CAkey", issuer.key.path,
                     "-set_serial", "22136", "-days", "3650", "-extfile", ext.path, "-out", cert.path])
        return Signer(certificate: cert, key: key, chain: issuer.certificate)
    }

    @discardableResult
    public func openssl(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        process.arguments = arguments
        let err = Pipe(), out = Pipe()
        process.standardError = err
        process.standardOutput = out
        try process.run()
        let output = out.fileHandleForReading.readDataToEndOfFile()
        let errors = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(description: "openssl \(arguments.joined(separator: " ")): \(String(decoding: errors, as: UTF8.self))")
        }
        return String(decoding: output, as: UTF8.self)
    }
}
