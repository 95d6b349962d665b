import Provisioning

/// Reads the profile named on the command line, whatever holds it.
enum ProfileInputs {
    struct Loaded {
        var profile: SignedProfile
        var source: String
        var app: AppBundle?
        var binary: BinaryEntitlements?
    }

    /// The profile in `path` (a profile, an `.app` or an `.ipa`), signature-checked: a profile
    /// whose digest or signature fails is an error here.
    static func verifiedProfile(at path: String, trustRoots: TrustRoots?) throws(CommandFailure) -> Loaded {
        do throws(ProvisioningError) {
            let input = try ProvisioningInput.load(path)
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
            return Loaded(profile: signed, source: source, app: input.app, binary: binary)
        } catch {
            throw .input(error.description)
        }
    }
}
