import ArgumentParser
import System
import PropertyList
import Provisioning

/// Options every `provision` command shares: trust roots and the clock.
struct ProvisionOptions: ParsableArguments {
    @Option(name: .customLong("trust-roots"), help: ArgumentHelp("Directory of trusted root certificates (PEM or DER) to verify the signer chain against.", valueName: "DIR"))
    var trustRootsDirectory: String?

    @Option(name: .long, help: ArgumentHelp("Evaluate expiry at this instant instead of now (YYYY-MM-DDTHH:MM:SSZ), for repeatable output.", valueName: "DATE"))
    var now: String?

    func validate() throws {
        if let now, PlistDate(iso8601: Array(now.utf8)) == nil {
            throw ValidationError("--now \(now) is not a date like 2026-01-31T12:00:00Z.")
        }
    }

    var instant: PlistDate {
        if let now, let date = PlistDate(iso8601: Array(now.utf8)) { return date }
        // Seconds since 1970 to seconds since 2001 (the plist epoch).
        return PlistDate(secondsSinceReferenceDate: Double(WallClock.secondsSince1970()) - 978_307_200)
    }

    func trustRoots() throws(CommandFailure) -> TrustRoots? {
        guard let trustRootsDirectory else { return nil }
        do { return try TrustRoots.load(directory: trustRootsDirectory) } catch { throw .input(error.description) }
    }
}
