import BinaryReading
import Diagnostics
import LintKit
import ObjectFile
import PropertyList
import Provisioning
import System

/// Checks one binary of a bundle against its code signature (pages, special slots, CMS
/// signer), and for a bundle's executable the bundle's resource seal and embedded profile;
/// the result is the dictionary the signature rules read (`BundleRules.file(…, kind:
/// .bundleSignature)`). Every entry that a rule reports carries `file` and, for a place in a
/// binary, `offset`: `CodeSealCheck` turns them into the finding's file and position.
///
/// The rules decide what is wrong; this only gathers facts, hashing with libcrypto
/// (`SealDigest`). Hostile signatures are `DecodeError`s from ObjectFile's bounded parsers,
/// recorded as `malformed` entries with their offsets.
struct SignatureInspection {
    /// Reported pages of one binary before the rest are only counted: a binary replaced
    /// wholesale would otherwise give a finding per page.
    static let maximumPages = 8

    let binary: String
    let bundle: NestedBundle
    /// The bundle's own executable (not a loose dylib of `Frameworks/`): its special slots
    /// bind the bundle's Info.plist and CodeResources, and it carries the bundle's seal.
    let isExecutable: Bool
    /// Files of an unpacked `.ipa` that were hashed instead of written, by path relative to
    /// `appRoot`.
    let unpacked: UnpackedDigests
    let appRoot: String

    private var fields: [(String, PlistValue)] = []
    private var malformed: [PlistValue] = []
    private var pages: [PlistValue] = []
    private var morePages = 0
    private var specialSlots: [PlistValue] = []
    private var resources: [PlistValue] = []

    init(binary: String, bundle: NestedBundle, isExecutable: Bool, unpacked: UnpackedDigests = UnpackedDigests(), appRoot: String = "") {
        self.binary = binary
        self.bundle = bundle
        self.isExecutable = isExecutable
        self.unpacked = unpacked
        self.appRoot = appRoot
    }

    /// The subject for the rules; nil when the binary is not signed at all (an unsigned build
    /// product is not what this check judges). I/O errors throw.
    static func subject(binary: String, bundle: NestedBundle, isExecutable: Bool,
                        unpacked: UnpackedDigests = UnpackedDigests(), appRoot: String = "") throws(FileIOError) -> PlistValue? {
        var inspection = SignatureInspection(binary: binary, bundle: bundle, isExecutable: isExecutable, unpacked: unpacked, appRoot: appRoot)
        guard try inspection.run() else { return nil }
        return inspection.value
    }

    /// Where the bundle's `_CodeSignature` lives: beside Info.plist on iOS, `Contents/` of a
    /// macOS app, `Versions/Current` of a macOS framework (whose Info.plist is in `Resources/`).
    var sealRoot: String {
        let directory = Self.parent(bundle.infoPlist)
        return bundle.kind == .framework && directory.hasSuffix("/Resources") ? Self.parent(directory) : directory
    }

    // MARK: - The binary

    private mutating func run() throws(FileIOError) -> Bool {
        let bytes = try FileIO.read(binary)
        var signed = false
        var primary: CodeDirectory?
        var entitlements: PlistValue?
        var signerCertificate: CertificateSummary?
        do throws(DecodeError) {
            let images = try MachOFile.images(bytes)
            for image in images {
                // A universal file's findings name the slice (architecture and offset: arm64 and
                // arm64e share a CPU type); a thin file's need not.
                let slice: PlistValue? = images.count > 1 ? .string("\(image.architecture) slice at 0x\(String(image.offset, radix: 16))") : nil
                guard let signature = try CodeSignature.read(bytes, image: image) else { continue }
                signed = true
                let directories = try CodeDirectory.all(in: signature)
                guard let first = directories.first(where: { $0.slot == CodeDirectory.primarySlot }) else {
                    throw DecodeError(section: "code signature", offset: image.offset + (image.codeSignature?.offset ?? 0),
                                      reason: "the SuperBlob has no CodeDirectory (slot 0)")
                }
                if primary == nil { primary = first }
                try checkPages(directories, image: image, bytes: bytes, slice: slice)
                checkSpecialSlots(directories, signature: signature, slice: slice)
                if entitlements == nil, let xml = signature.entitlementsXML {
                    entitlements = try? PropertyListCoding.read(xml).value
                }
                if let cms = checkSigner(signature, primary: first), signerCertificate == nil { signerCertificate = cms }
            }
        } catch {
            malformed.append(Self.entry(["file": .string(binary), "offset": Self.integer(error.offset),
                                         "reason": .string("\(error.section): \(error.reason)")]))
            signed = true
        }
        guard signed else { return false }
        if let primary {
            fields.append(("identifier", .string(primary.identifier)))
            if let team = primary.teamIdentifier { fields.append(("teamIdentifier", .string(team))) }
        }
        if isExecutable, primary != nil {
            try checkResources()
            try checkProfile(entitlements: entitlements, signer: signerCertificate)
        }
        return true
    }

    /// Every code slot of every CodeDirectory against the page it covers.
    private mutating func checkPages(_ directories: [CodeDirectory], image: MachOSlice, bytes: [UInt8], slice: PlistValue?) throws(DecodeError) {
        // Page indices that failed, with the algorithms that failed them.
        let failed = try bytes.withUnsafeBytes { raw in Result { () throws(DecodeError) -> [Int: [String]] in
            var failed: [Int: [String]] = [:]
            let slice = image.bytes(in: raw)
            for directory in directories {
                // The code slots cover the slice from its start; a limit past its end means
                // the file was cut after signing.
                guard directory.codeLimit <= slice.count else {
                    throw DecodeError(section: "code directory", offset: directory.offset + 32,
                                      reason: "code limit \(directory.codeLimit) lies past the end of the \(slice.count)-byte image (the binary was truncated after signing?)")
                }
                for index in 0..<directory.codeSlotCount {
                    let page = UnsafeRawBufferPointer(rebasing: slice[directory.pageRange(index)])
                    if !SealDigest.matches(directory.hash(code: index), page, directory.hashType) {
                        failed[index, default: []].append(directory.hashType.name)
                    }
                }
            }
            return failed
        } }.get()
        for index in failed.keys.sorted() {
            guard pages.count < Self.maximumPages, let directory = directories.first else { morePages += 1; continue }
            let range = directory.pageRange(index)
            var entry: [String: PlistValue] = ["file": .string(binary), "offset": Self.integer(image.offset + range.lowerBound),
                                               "page": Self.integer(index), "size": Self.integer(range.count),
                                               "hashes": .array((failed[index] ?? []).map(PlistValue.string))]
            entry["slice"] = slice
            pages.append(Self.entry(entry))
        }
    }

    /// Info.plist, the requirements, CodeResources and the entitlements blobs against the
    /// special slots of each CodeDirectory; one entry per slot and problem, naming every
    /// CodeDirectory that has it (at the first one's hash).
    private mutating func checkSpecialSlots(_ directories: [CodeDirectory], signature: CodeSignature, slice: PlistValue?) {
        for slot in CodeDirectory.SpecialSlot.allCases {
            let (item, bytes) = specialItem(slot, signature: signature)
            var found: [(problem: String, offset: Int, hashTypes: [PlistValue])] = []
            for directory in directories {
                let stored = directory.hash(special: slot.rawValue)
                let bound = stored.map { $0.contains { $0 != 0 } } ?? false
                let problem: String
                switch (bound, bytes) {
                case (false, nil): continue
                case (false, _?):
                    // A loose dylib binds no Info.plist or CodeResources; only its blobs count.
                    guard isExecutable || (slot != .infoPlist && slot != .resourceDirectory) else { continue }
                    problem = "unbound"
                case (true, nil): problem = "missing"
                case (true, let bytes?):
                    guard let stored, !bytes.withUnsafeBytes({ SealDigest.matches(stored, $0, directory.hashType) }) else { continue }
                    problem = "modified"
                }
                let name = PlistValue.string(directory.hashType.name)
                if let index = found.firstIndex(where: { $0.problem == problem }) {
                    found[index].hashTypes.append(name)
                } else {
                    // At the stored hash; a slot beyond nSpecialSlots has none, so at the CodeDirectory.
                    let offset = slot.rawValue <= directory.specialSlotCount
                        ? directory.hashesOffset - slot.rawValue * directory.hashType.size : directory.offset
                    found.append((problem, offset, [name]))
                }
            }
            for (problem, offset, hashTypes) in found {
                var entry: [String: PlistValue] = ["file": .string(binary), "offset": Self.integer(offset),
                                                   "slot": Self.integer(-slot.rawValue), "item": .string(item),
                                                   "problem": .string(problem), "hashTypes": .array(hashTypes)]
                entry["slice"] = slice
                specialSlots.append(Self.entry(entry))
            }
        }
    }

    /// What a special slot binds, named for messages, and its bytes (nil when absent).
    private func specialItem(_ slot: CodeDirectory.SpecialSlot, signature: CodeSignature) -> (String, [UInt8]?) {
        switch slot {
        case .infoPlist:
            return (bundle.infoPlist, isExecutable ? try? FileIO.read(bundle.infoPlist, kind: .propertyList) : nil)
        case .resourceDirectory:
            let path = sealRoot + "/_CodeSignature/CodeResources"
            return (path, isExecutable ? try? FileIO.read(path, kind: .propertyList) : nil)
        case .requirements, .entitlements, .derEntitlements:
            return (slot.name, signature.blob(slot: UInt32(slot.rawValue))?.bytes)
        }
    }

    /// The CMS signer (slot 0x10000): none is an ad-hoc signature; one that does not verify
    /// over the primary CodeDirectory is reported. Returns the signer's certificate.
    private mutating func checkSigner(_ signature: CodeSignature, primary: CodeDirectory) -> CertificateSummary? {
        let wrapper = signature.blob(slot: CodeSignature.cmsSlot)
        let offset = wrapper.map { $0.offset - 8 } ?? primary.offset
        guard let cms = wrapper?.content, !cms.isEmpty, !primary.isAdHoc else {
            if !fields.contains(where: { $0.0 == "adHoc" }) {
                fields.append(("adHoc", Self.entry(["file": .string(binary), "offset": Self.integer(offset),
                                                    "flagged": .bool(primary.isAdHoc)])))
            }
            return nil
        }
        do {
            let signedData = try CMSSignedData.parse(cms, detachedContent: primary.bytes)
            let check = try CMSVerifier.verify(signedData, trustRoots: nil)
            // CMSVerifier words a digest mismatch for profiles; here the content is the CodeDirectory.
            let failure = if case .invalid = check.digest {
                "the primary CodeDirectory's digest differs from the signed message-digest attribute (it changed after signing)"
            } else { check.failure }
            if let failure, !fields.contains(where: { $0.0 == "cms" }) {
                fields.append(("cms", Self.entry(["file": .string(binary), "offset": Self.integer(offset), "reason": .string(failure)])))
            }
            return check.signerChain.first
        } catch {
            // Offsets inside the CMS blob, made absolute.
            malformed.append(Self.entry(["file": .string(binary), "offset": Self.integer(offset + 8 + error.offset),
                                         "reason": .string("CMS signature: \(error.reason)")]))
            return nil
        }
    }

    // MARK: - The bundle

    /// `_CodeSignature/CodeResources` against the files of the bundle.
    private mutating func checkResources() throws(FileIOError) {
        let root = sealRoot
        let path = root + "/_CodeSignature/CodeResources"
        guard DirectoryWalk.type(of: path) == .file else { return }  // the special slot reports it
        let seal: ResourceSeal
        do { seal = try ResourceSeal.read(try FileIO.read(path, kind: .propertyList), path: path) } catch let error as Diagnostic {
            malformed.append(Self.entry(["file": .string(path), "reason": .string(error.message)]))
            return
        } catch {
            throw error as? FileIOError ?? FileIOError(path: path, reason: "\(error)")
        }
        var sealed = Set<String>()
        var nestedDirectories = Set<String>()
        for (relative, entry) in seal.entries {
            sealed.insert(relative)
            let full = root + "/" + relative
            func report(_ problem: String) {
                resources.append(Self.entry(["file": .string(full), "path": .string(relative), "problem": .string(problem)]))
            }
            switch entry {
            case .symlink(let target):
                // An .ipa's links are unpacked as plain files holding their target (UntrustedZip).
                let actual = FileIO.linkTarget(full)
                    ?? (DirectoryWalk.type(of: full) == .file ? (try? FileIO.read(full)).map { String(decoding: $0, as: UTF8.self) } : nil)
                guard let actual else { report("missing"); continue }
                if actual != target { report("symlink") }
            case .nested(let cdhash):
                let type = DirectoryWalk.type(of: full)
                if type == .directory { nestedDirectories.insert(relative) }
                guard type != .missing else { report("missing"); continue }
                if Self.cdhash(of: full, isDirectory: type == .directory) != cdhash { report("nested") }
            case .file(let sha1, let sha256, let optional):
                let actual: UnpackedDigests.Digest
                if DirectoryWalk.type(of: full) == .file, let bytes = try? FileIO.read(full) {
                    actual = bytes.withUnsafeBytes { raw in
                        UnpackedDigests.Digest(sha1: sha256 == nil ? SealDigest.sha1(raw) : [], sha256: sha256 == nil ? [] : SealDigest.sha256(raw))
                    }
                } else if let digest = unpackedDigest(full) {
                    actual = digest
                } else {
                    if !optional { report("missing") }
                    continue
                }
                let matches = sha256.map { actual.sha256 == $0 } ?? (actual.sha1 == sha1 ?? [])
                if !matches { report("modified") }
            }
        }
        // Files present but not sealed: added after signing, unless a rule omits them.
        let executable = bundle.binaries.first.map { Self.relative($0, to: root) }
        let (files, errors) = DirectoryWalk.files(under: root, descend: { directory in
            let relative = Self.relative(directory, to: root)
            if relative == "_CodeSignature" || nestedDirectories.contains(relative) { return false }
            if Self.isBundleDirectory(relative) {
                // Nested code that the seal does not name at all.
                resources.append(Self.entry(["file": .string(directory), "path": .string(relative), "problem": .string("added")]))
                return false
            }
            return true
        }, include: { _ in true })
        if let error = errors.first { throw error }
        // And those of an unpacked .ipa that were only hashed, unless inside a directory the
        // walk did not enter (nested code, the signature).
        var present = files
        for path in unpacked.byPath.keys.sorted() {
            let file = appRoot + "/" + path
            guard file.hasPrefix(root + "/") else { continue }
            let components = Self.relative(file, to: root).split(separator: "/")
            let inside = (1..<max(components.count, 1)).contains { count in
                let directory = components.prefix(count).joined(separator: "/")
                return directory == "_CodeSignature" || nestedDirectories.contains(directory) || Self.isBundleDirectory(directory)
            }
            if !inside { present.append(file) }
        }
        for file in present {
            let relative = Self.relative(file, to: root)
            guard !sealed.contains(relative), relative != executable else { continue }
            if let rule = seal.rule(for: relative), rule.omit { continue }
            resources.append(Self.entry(["file": .string(file), "path": .string(relative), "problem": .string("added")]))
        }
    }

    /// The digests of `path` if it is a file of an unpacked `.ipa` that was only hashed.
    func unpackedDigest(_ path: String) -> UnpackedDigests.Digest? {
        guard !unpacked.byPath.isEmpty, path.hasPrefix(appRoot + "/") else { return nil }
        return unpacked.byPath[String(path.dropFirst(appRoot.count + 1))]
    }

    /// The bundle's `embedded.mobileprovision` against its own binary: bundle identifier,
    /// entitlements, and the signer's certificate among the profile's.
    private mutating func checkProfile(entitlements: PlistValue?, signer: CertificateSummary?) throws(FileIOError) {
        let path = sealRoot + "/embedded.mobileprovision"
        guard DirectoryWalk.type(of: path) == .file else { return }
        let signed: SignedProfile
        do { signed = try ProfileReader.read(try FileIO.read(path, kind: .profile)) } catch let error as ProvisioningError {
            malformed.append(Self.entry(["file": .string(path), "reason": .string(error.diagnostic.message)]))
            return
        } catch {
            throw error as? FileIOError ?? FileIOError(path: path, reason: "\(error)")
        }
        let profile = signed.profile
        var entry: [String: PlistValue] = ["file": .string(path), "name": .string(profile.name),
                                           "entitlements": .dictionary(profile.entitlements)]
        if let pattern = profile.bundleIdentifierPattern { entry["bundleIdentifierPattern"] = .string(pattern) }
        if let info = try? PropertyListCoding.read(try FileIO.read(bundle.infoPlist, kind: .propertyList)).value,
           let identifier = info[key: "CFBundleIdentifier"]?.stringValue {
            entry["bundleIdentifier"] = .string(identifier)
        }
        if let entitlements { entry["binaryEntitlements"] = entitlements }
        entry["developerCertificates"] = .array(profile.developerCertificates.compactMap {
            if case .parsed(let summary) = $0 { .string(summary.sha1Fingerprint) } else { nil }
        })
        if let signer {
            entry["signer"] = Self.entry(["name": .string(signer.commonName), "sha1": .string(signer.sha1Fingerprint)])
        }
        fields.append(("profile", Self.entry(entry)))
    }

    // MARK: - Helpers

    var value: PlistValue {
        var all = [("binary", PlistValue.string(binary)), ("bundle", .string(bundle.path)), ("bundleKind", .string(bundle.kind.rawValue))]
        all += fields
        all += [("malformed", .array(malformed)), ("pages", .array(pages)), ("morePages", Self.integer(morePages)),
                ("specialSlots", .array(specialSlots)), ("resources", .array(resources))]
        return .dictionary(.init(uniqueKeysWithValues: all))
    }

    /// The cdhash of the code at `path`: a bundle's executable (from its Info.plist) or a
    /// Mach-O file; nil when it has no readable signature.
    static func cdhash(of path: String, isDirectory: Bool) -> [UInt8]? {
        var binary = path
        if isDirectory {
            var errors: [String] = []
            let nested = BundleInventory.bundle(path, kind: path.hasSuffix(".framework") ? .framework : .appExtension,
                                                macOS: FileIO.isDirectory(path + "/Contents"), errors: &errors)
            guard let executable = nested.binaries.first else { return nil }
            binary = executable
        }
        guard let bytes = try? FileIO.read(binary), let image = try? MachOFile.images(bytes).first,
              let signature = try? CodeSignature.read(bytes, image: image),
              let directory = try? CodeDirectory.all(in: signature).first else { return nil }
        return SealDigest.cdhash(directory)
    }

    static func isBundleDirectory(_ relative: String) -> Bool {
        [".framework", ".appex", ".app", ".bundle", ".xpc"].contains { relative.hasSuffix($0) }
    }

    static func relative(_ path: String, to root: String) -> String {
        path.hasPrefix(root + "/") ? String(path.dropFirst(root.count + 1)) : path
    }

    static func parent(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return String(path[..<slash])
    }

    static func integer(_ value: Int) -> PlistValue { .integer(PlistInteger(Int64(value))) }

    static func entry(_ fields: [String: PlistValue]) -> PlistValue {
        .dictionary(.init(uniqueKeysWithValues: fields.sorted { $0.key < $1.key }))
    }
}
