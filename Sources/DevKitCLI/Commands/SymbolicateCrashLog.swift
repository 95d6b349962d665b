import ArgumentParser
import CoreDump
import CrashReport
import CrashSymbolication
import System
import PropertyList
import Symbolication

/// How `devkit symbolicate CRASHLOG` prints a report.
enum CrashLogFormat: String, ExpressibleByArgument {
    case summary, same, json
}

/// `devkit symbolicate CRASHLOG...`: every log read, symbolicated with one catalog of the
/// search paths and one symbolicator (images opened once across logs), and printed.
struct CrashLogRun {
    var format: CrashLogFormat
    var searchPaths: [String]
    var executable: String?
    var output: String?
    var options: SymbolicationOptions
    /// `--binary BIN` with address-list files: the image every address belongs to.
    var addressListImage: AddressListImage?

    struct AddressListImage {
        var path: String
        /// `--load-address`; nil: the addresses are file (link-time) addresses.
        var loadAddress: UInt64?
        /// `--uuid`/`--build-id`, checked like a crash log's.
        var identifier: String?
    }

    func symbolicate(_ paths: [String]) throws(CommandFailure) {
        let catalog = ImageCatalog(searchPaths: searchPaths)
        for problem in catalog.problems { FileHandleOutput.standardError("warning: --search-path \(problem)\n") }
        let symbolicator = CrashSymbolicator(resolver: ImageResolver(catalog: catalog), options: options)
        if let output, paths.count > 1 {
            do { try FileIO.createDirectories(output) } catch { throw CommandFailure.diagnostic(error) }
        }
        var failures = 0
        var written = OutputBuffer()
        for path in paths {
            do throws(CommandFailure) {
                let text = try render(path, symbolicator: symbolicator)
                if let output {
                    let target = paths.count > 1 ? "\(output)/\(path.split(separator: "/").last.map(String.init) ?? path)" : output
                    // Atomic (temp + rename) always; fsynced only for one log: a thousand symbolicated
                    // logs would wait on the disk a thousand times, and are cheap to make again.
                    do { try FileIO.writeAtomically(text, to: target, durable: paths.count == 1) } catch { throw CommandFailure.diagnostic(error) }
                } else {
                    written.bytes += text
                    written.flushIfFull()
                }
            } catch {
                written.flush()
                FileHandleOutput.standardError(error.message + "\n")
                failures += 1
            }
        }
        written.flush()
        if failures > 0 { throw CommandFailure(message: "", exitCode: 2) }
    }

    /// One log, read, symbolicated and rendered; warnings go to standard error.
    private func render(_ path: String, symbolicator: CrashSymbolicator) throws(CommandFailure) -> [UInt8] {
        var bytes: [UInt8] = []
        let document: CrashReportDocument
        if let contents = try readLog(path) {
            bytes = contents
            if let image = addressListImage {
                document = try addressList(contents, path: path, image: image, symbolicator: symbolicator)
            } else {
                document = try read(contents, path: path)
            }
        } else {
            // A core is read by libdwfl from its path; it is never loaded whole.
            do { document = try CoreDumpReader.read(corePath: path, executable: executable, searchPaths: searchPaths) } catch {
                throw CommandFailure.input("\(error)")
            }
        }
        for warning in document.warnings {
            FileHandleOutput.standardError("\(path):\(warning.line.map { "\($0):" } ?? "") warning: \(warning.message)\n")
        }
        let crash = symbolicator.symbolicate(document.report)
        for warning in crash.warnings { FileHandleOutput.standardError("\(path): warning: \(warning)\n") }
        do {
            switch format {
            case .summary: return Array(CrashSummaryRenderer().render(crash).utf8)
            case .json: return try CrashJSONRenderer().render(crash)
            case .same: return try SameFormatRenderer().render(crash, original: bytes)
            }
        } catch {
            throw CommandFailure.input("\(path): error: \(error.message)")
        }
    }

    /// The log's bytes, or nil for an ELF core (read once: the core check looks at the first
    /// bytes of the same open file).
    private func readLog(_ path: String) throws(CommandFailure) -> [UInt8]? {
        do { return try FileIO.read(path, unlessPrefix: 18, matches: Self.isCore) } catch {
            // `devkit symbolicate 0x1000`: an address without --binary, not a missing crash log.
            if parseAddress(Substring(path)) != nil {
                throw CommandFailure.input("error: \"\(path)\" is no crash log; to symbolicate addresses, give --binary BIN")
            }
            throw CommandFailure.diagnostic(error)
        }
    }

    /// An ELF file of type `ET_CORE` (4), by its first 18 bytes.
    static func isCore(_ head: [UInt8]) -> Bool {
        guard head.count >= 18, head.starts(with: [0x7f, 0x45, 0x4c, 0x46]) else { return false }
        let type = head[5] == 2 ? UInt16(head[16]) << 8 | UInt16(head[17]) : UInt16(head[17]) << 8 | UInt16(head[16])
        return type == 4
    }

    /// The list's frames tied to `image`: its load address is `--load-address`, else its own
    /// link address (so the addresses are file addresses).
    private func addressList(_ bytes: [UInt8], path: String, image: AddressListImage,
                             symbolicator: CrashSymbolicator) throws(CommandFailure) -> CrashReportDocument {
        var document: CrashReportDocument
        do { document = try CrashReportParser.parse(bytes, as: .addressList) } catch {
            throw CommandFailure.input("\(path):\(error.line.map { "\($0):" } ?? "") error: \(error.message)")
        }
        let symbolizer: ImageSymbolizer
        do { symbolizer = try symbolicator.session.image(at: image.path, identifier: image.identifier, architecture: options.architecture) } catch {
            throw CommandFailure.input("\(error)")
        }
        var binary = CrashBinaryImage(name: image.path.split(separator: "/").last.map(String.init) ?? image.path)
        binary.path = image.path.hasPrefix("/") ? image.path : DirectoryWalk.currentDirectory() + "/" + image.path
        binary.loadAddress = image.loadAddress ?? symbolizer.imageBase
        binary.uuid = image.identifier ?? symbolizer.identifier
        document.report.binaryImages = [binary]
        return document
    }

    private func read(_ bytes: [UInt8], path: String) throws(CommandFailure) -> CrashReportDocument {
        do { return try CrashReportParser.parse(bytes) } catch {
            throw CommandFailure.input("\(path):\(error.line.map { "\($0):" } ?? "") error: \(error.message)")
        }
    }
}
