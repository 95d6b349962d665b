import BundleChecks
import DevKitTestSupport
import Foundation
import LintConfigFile
import LintKit
import PlistChecks
import Testing

/// The signature check on apps signed by Scripts/fixtures/make-signed-app (real Mach-O from
/// clang and ld64.lld, CodeDirectories and CodeResources hashed by Python's hashlib, CMS by
/// openssl): the intact app is clean, and each damaged copy gives exactly the finding its one
/// change calls for, at the file and offset where it is.
@Suite struct CodeSealCheckTests {
    static func check(_ app: String) throws -> (findings: [Finding], inputErrors: [String]) {
        let engine = try LintEngine(registry: BundleRules.lintRegistry)
        return CodeSealCheck().check(try SignedApp.path(app), engine: engine)
    }

    /// `file[: offset] rule: message`, paths relative to the fixture directory.
    static func summary(_ findings: [Finding]) throws -> [String] {
        let root = try SignedApp.path("Signed.app").dropLast("Signed.app".count)
        return findings.map { finding in
            let position = finding.location.map { ": \($0)" } ?? ""
            return "\(finding.file.replacingOccurrences(of: String(root), with: ""))\(position) \(finding.ruleID): \(finding.message.replacingOccurrences(of: String(root), with: ""))"
        }
    }

    /// The file offset of the primary CodeDirectory of `binary` in the fixture directory,
    /// found by Python (an independent reading of the SuperBlob), for the expected positions.
    static func codeDirectoryOffset(_ binary: String) throws -> Int {
        let script = """
            import struct, sys
            d = open(sys.argv[1], "rb").read()
            n = struct.unpack_from("<I", d, 16)[0]; o = 32
            for _ in range(n):
                c, s = struct.unpack_from("<II", d, o)
                if c == 0x1d: off = struct.unpack_from("<I", d, o + 8)[0]
                o += s
            cnt = struct.unpack_from(">I", d, off + 8)[0]
            print([off + struct.unpack_from(">II", d, off + 12 + 8 * i)[1] for i in range(cnt) if struct.unpack_from(">II", d, off + 12 + 8 * i)[0] == 0][0])
            """
        let output = try TestProcess.run("/usr/bin/env", ["python3", "-c", script, try SignedApp.path(binary)])
        return try #require(Int(output.stdout.trimmingCharacters(in: .whitespacesAndNewlines)))
    }

    static func hex(_ value: Int) -> String { "offset 0x" + String(value, radix: 16) }

    @Test func intactSignedAppAndItsIPAAreClean() throws {
        let (findings, errors) = try Self.check("Signed.app")
        #expect(errors.isEmpty, "\(errors)")
        #expect(try Self.summary(findings) == [])
    }

    /// lld's own ad-hoc signature (a third implementation of the page hashes): no page differs.
    @Test func linkerSignedBinaryHasNoModifiedPage() throws {
        let (findings, errors) = try Self.check("LLD.app")
        #expect(errors.isEmpty)
        let cd = Self.hex(try Self.codeDirectoryOffset("LLD.app/Tool"))
        #expect(try Self.summary(findings) == [
            "LLD.app/Tool: \(cd) seal.special-slot: LLD.app/Info.plist is not bound by the SHA-256 CodeDirectory (special slot -1 is empty): nothing vouches for it",
            "LLD.app/Tool: \(cd) signature.ad-hoc: Tool is signed ad hoc (no signer certificate); an App Store upload needs a distribution signature (ITMS-90035)",
        ])
    }

    /// The executable as a universal file (one arm64 slice at 4096): pages are read from the slice.
    @Test func fatExecutableIsReadFromItsSlice() throws {
        let (findings, errors) = try Self.check("fat/Signed.app")
        #expect(errors.isEmpty)
        #expect(try Self.summary(findings) == [])
    }

    @Test func adHocSignaturesAreFindingsNotFailures() throws {
        let (findings, errors) = try Self.check("AdHoc.app")
        #expect(errors.isEmpty)
        #expect(findings.map(\.ruleID) == ["signature.ad-hoc", "signature.ad-hoc", "signature.ad-hoc"])
        #expect(findings.map { URL(fileURLWithPath: $0.file).lastPathComponent } == ["AdHoc", "Kit", "Widget"])
        #expect(findings.allSatisfy { if case .byteOffset = $0.location { true } else { false } })
    }

    @Test func signerAndProfilesOfEachBundle() throws {
        let (findings, errors) = try Self.check("WrongProfile.app")
        #expect(errors.isEmpty)
        let summary = try Self.summary(findings)
        #expect(summary.count == 6, "\(summary.joined(separator: "\n"))")
        #expect(summary.first?.hasPrefix("WrongProfile.app/embedded.mobileprovision signature.signer-not-in-profile: WrongProfile is signed by \"Apple Distribution: Someone Else (ABCDE12345)\"") == true)
        #expect(summary.contains("WrongProfile.app/PlugIns/Widget.appex/embedded.mobileprovision signature.profile-mismatch: Widget.appex/embedded.mobileprovision is for com.example.other, not this bundle's identifier com.example.signed.widget"))
        #expect(summary.contains("WrongProfile.app/PlugIns/Widget.appex/embedded.mobileprovision signature.profile-mismatch: entitlement com.apple.security.application-groups is not granted by Widget.appex/embedded.mobileprovision"))
        #expect(summary.filter { $0.contains("signature.signer-not-in-profile") }.count == 2)
    }

    /// (damaged copy, expected findings with `CD` standing for the primary CodeDirectory's
    /// offset plus the number after it).
    static let damaged: [(String, [String])] = [
        ("page", ["damaged/page.app/Signed: offset 0x2000 seal.code-page: page 2 (4096 bytes) does not match its SHA-1 and SHA-256 hashes in the code signature: the binary changed after signing"]),
        ("info", ["damaged/info.app/Signed: CD+238 seal.special-slot: damaged/info.app/Info.plist does not match its hash in special slot -1 of the SHA-1 and SHA-256 CodeDirectories: it changed after signing"]),
        ("resource-modified", ["damaged/resource-modified.app/Assets/logo.png seal.resource: Assets/logo.png does not match its hash in CodeResources: modified after signing"]),
        ("resource-added", ["damaged/resource-added.app/Assets/extra.txt seal.resource: Assets/extra.txt is not sealed in CodeResources: added after signing"]),
        ("resource-removed", ["damaged/resource-removed.app/Assets/logo.png seal.resource: Assets/logo.png is sealed in CodeResources but missing"]),
        ("entitlements", [
            "damaged/entitlements.app/Signed: CD+158 seal.special-slot: the entitlements blob does not match its hash in special slot -5 of the SHA-1 and SHA-256 CodeDirectories: it changed after signing",
            "damaged/entitlements.app/Signed: CD+118 seal.special-slot: the DER entitlements blob does not match its hash in special slot -7 of the SHA-1 and SHA-256 CodeDirectories: it changed after signing",
            "damaged/entitlements.app/embedded.mobileprovision signature.profile-mismatch: entitlement get-task-allow = true is not granted by entitlements.app/embedded.mobileprovision, which allows false",
        ]),
        ("fat-page", ["damaged/fat-page.app/Signed: offset 0x3000 seal.code-page: page 2 (4096 bytes) does not match its SHA-1 and SHA-256 hashes in the code signature: the binary changed after signing"]),
        ("fat2-page", ["damaged/fat2-page.app/Signed: offset 0x1a000 seal.code-page: page 2 (4096 bytes) of the arm64 slice at 0x18000 does not match its SHA-1 and SHA-256 hashes in the code signature: the binary changed after signing"]),
        ("framework-resigned", ["damaged/framework-resigned.app/Frameworks/Kit.framework seal.resource: Frameworks/Kit.framework is nested code whose CodeDirectory hash differs from the cdhash CodeResources seals: it changed or was re-signed after its container"]),
        ("cms", ["damaged/cms.app/Signed: CMS signature.cms-invalid: the CMS signature does not verify over the CodeDirectory: the primary CodeDirectory's digest differs from the signed message-digest attribute (it changed after signing)"]),
        ("framework", ["damaged/framework.app/Frameworks/Kit.framework/Kit: offset 0x1000 seal.code-page: page 1 (4096 bytes) does not match its SHA-256 hash in the code signature: the binary changed after signing"]),
        ("truncated-cd", ["damaged/truncated-cd.app/Signed: CD+56 signature.malformed: the code signature cannot be read: code directory: needs 8 bytes but only 4 remain (input truncated?)"]),
        ("huge-slots", ["damaged/huge-slots.app/Signed: CD+16 signature.malformed: the code signature cannot be read: code directory: 7 special and 4294967295 code slots of 20 bytes at offset 258 do not fit in the 518-byte CodeDirectory"]),
    ]

    @Test(arguments: damaged)
    func damagedCopy(_ name: String, _ expected: [String]) throws {
        let (findings, errors) = try Self.check("damaged/\(name).app")
        #expect(errors.isEmpty, "\(errors)")
        let binary = "damaged/\(name).app/Signed"
        // Python reads thin files only; the fat copy's expectations need no CodeDirectory offset.
        let cd = name.hasPrefix("fat") ? 0 : try Self.codeDirectoryOffset(binary)
        // The CMS blob is the SuperBlob's last: its offset is in the finding; check it is past the CodeDirectory.
        let resolved = expected.map { line in
            guard let range = line.range(of: #"CD\+[0-9]+"#, options: .regularExpression) else { return line }
            let delta = Int(line[range].dropFirst(3)) ?? 0
            return line.replacingCharacters(in: range, with: Self.hex(cd + delta))
        }
        let summary = try Self.summary(findings)
        if name == "cms" {
            #expect(summary.count == 1)
            let offset = try #require(findings.first.flatMap { if case .byteOffset(let o)? = $0.location { o } else { nil } })
            #expect(offset > cd)
            #expect(summary.first == resolved.first?.replacingOccurrences(of: ": CMS ", with: ": \(Self.hex(offset)) "))
        } else {
            #expect(summary == resolved, "\(summary.joined(separator: "\n"))")
        }
    }

    /// Through `devkit lint`'s front end on .ipa files: the intact one clean; a large resource
    /// (hashed from the archive, never written out) changed, added or left out is reported
    /// under the archive's name.
    @Test(arguments: [
        ("Signed.ipa", []),
        ("damaged/movie-modified.ipa", ["Payload/Signed.app/Assets/movie.bin: Assets/movie.bin does not match its hash in CodeResources: modified after signing"]),
        ("damaged/movie-added.ipa", ["Payload/Signed.app/Assets/extra.bin: Assets/extra.bin is not sealed in CodeResources: added after signing"]),
        ("damaged/movie-removed.ipa", ["Payload/Signed.app/Assets/movie.bin: Assets/movie.bin is sealed in CodeResources but missing"]),
    ])
    func ipaThroughTheFrontEnd(_ name: String, _ expected: [String]) throws {
        let frontend = PlistLintFrontend(selection: RuleSelection(), registry: BundleRules.lintRegistry,
                                         directoryChecks: [CodeSealCheck()], archiveUnpackers: [IPAArchiveUnpacker()])
        let ipa = try SignedApp.path(name)
        let result = try frontend.lint([ipa], jobs: 1, fix: false)
        #expect(result.inputErrors.isEmpty, "\(result.inputErrors)")
        let seal = result.findings.filter { $0.ruleID.hasPrefix("seal.") || $0.ruleID.hasPrefix("signature.") }
        #expect(seal.map { "\($0.file.replacingOccurrences(of: ipa + "!", with: "")): \($0.message)" } == expected)
    }
}
