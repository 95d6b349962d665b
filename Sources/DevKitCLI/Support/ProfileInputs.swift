import FileIO
import Provisioning

/// Reads the profile named on the command line, whatever holds it.
enum ProfileInputs {
    struct Loaded {
        var profile: SignedProfile
        var source: String
    }

    /// The profile in `path` (a profile file), signature-checked: a profile whose digest or
    /// signature fails is an error here.
    static func verifiedProfile(at path: String, trustRoots: TrustRoots?) throws(CommandFailure) -> Loaded {
        let bytes: [UInt8]
        do { bytes = try FileIO.read(path) } catch { throw .io(error) }
        let signed: SignedProfile
        do { signed = try ProfileReader.read(bytes, trustRoots: trustRoots) } catch {
            throw .input(error.inFile(path).description)
        }
        if let failure = signed.signature.failure {
            throw .input("\(path): error: signature check failed: \(failure)")
        }
        return Loaded(profile: signed, source: path)
    }
}
