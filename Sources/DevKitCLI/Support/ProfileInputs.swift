import Provisioning

/// Reads what a path on the command line names, for `provision inspect`.
enum ProfileInputs {
    struct Loaded {
        var profile: SignedProfile
        var source: String
        var app: AppBundle?
        var binary: BinaryEntitlements?
    }

    enum Inspected {
        /// A profile (alone, or embedded in an app, with the app's binary entitlements).
        case profile(Loaded)
        /// A bare Mach-O binary's entitlements (nil when it has none).
        case binary(BinaryEntitlements?)
    }

    /// The profile in `path` (a profile, an `.app` or an `.ipa`), signature-checked: a profile
    /// whose digest or signature fails is an error here. A Mach-O file gives its entitlements.
    static func inspect(_ path: String, trustRoots: TrustRoots?) throws(CommandFailure) -> Inspected {
        do throws(ProvisioningError) {
            let input = try ProvisioningInput.load(path)
            if case .binary(let bytes, _) = input {
                do { return .binary(try BinaryEntitlements.read(bytes)) } catch { throw error.inFile(path) }
            }
            let (bytes, source) = try input.profileBytes()
            let signed: SignedProfile
            do { signed = try ProfileReader.read(bytes, trustRoots: trustRoots) } catch { throw error.inFile(source) }
            if let failure = signed.signature.failure {
                throw ProvisioningError(file: source, message: "signature check failed: \(failure)")
            }
            var binary: BinaryEntitlements?
            if let executable = input.app?.executable {
                do { binary = try BinaryEntitlements.read(executable) } catch {
                    throw error.inFile("\(input.app?.location ?? path)/\(input.app?.executableName ?? "")")
                }
            }
            return .profile(Loaded(profile: signed, source: source, app: input.app, binary: binary))
        } catch {
            throw .input(error.description)
        }
    }
}
