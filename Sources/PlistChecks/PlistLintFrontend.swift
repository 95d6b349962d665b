import Diagnostics
import System
import LintConfigFile
import LintKit
import PropertyList

/// `devkit lint` below its command line: the settings (config file, then flags), the plist
/// pack's options (`--project-dir` listed, `--app` read), the engine, the walk over the
/// paths, linting on several threads and `--fix`.
public struct PlistLintFrontend: Sendable {
    /// Which rules run, from which config file.
    public var selection: RuleSelection
    /// `--built-product`.
    public var isBuiltProduct: Bool
    /// `--configuration`.
    public var configuration: BuildConfiguration?
    /// `--project-dir`: a folder whose file names rules compare keys with.
    public var projectDirectory: String?
    /// `--app`: the Info.plist an OTA manifest is compared with.
    public var appInfoPath: String?
    /// The rules that can run (the engine's own and the plist pack's, and those of the
    /// directory checks).
    public var registry: RuleRegistry
    /// Checks of whole directories named on the command line (an `.app`'s required-reason
    /// APIs), run after the files inside are linted.
    public var directoryChecks: [any DirectoryCheck]
    /// Archives named on the command line that are linted as the directory they unpack to.
    public var archiveUnpackers: [any ArchiveUnpacker]

    public init(selection: RuleSelection = RuleSelection(), isBuiltProduct: Bool = false, configuration: BuildConfiguration? = nil,
                projectDirectory: String? = nil, appInfoPath: String? = nil, registry: RuleRegistry = PlistRules.registry,
                directoryChecks: [any DirectoryCheck] = [], archiveUnpackers: [any ArchiveUnpacker] = []) {
        self.selection = selection
        self.isBuiltProduct = isBuiltProduct
        self.configuration = configuration
        self.projectDirectory = projectDirectory
        self.appInfoPath = appInfoPath
        self.registry = registry
        self.directoryChecks = directoryChecks
        self.archiveUnpackers = archiveUnpackers
    }

    /// Lints `paths` (files or directories; none: the current directory) on `jobs` threads,
    /// with `fix` applying safe fixes first. Throws for settings or options that cannot be
    /// used; paths that cannot be walked or read are the result's input errors.
    public func lint(_ paths: [String], jobs: Int, fix: Bool) throws(LintConfigurationError) -> LintResult {
        var warnings: [String] = []
        let run = try makeRun(warnings: &warnings)
        var unpacked: [UnpackedArchive] = []
        defer { for archive in unpacked { archive.directory.removeAll() } }
        var unpackErrors: [String] = []
        var roots: [String] = []
        for root in paths.isEmpty ? ["."] : paths {
            guard let unpacker = archiveUnpackers.first(where: { $0.applies(to: root) }), DirectoryWalk.type(of: root) == .file else {
                roots.append(root)
                continue
            }
            // Fixes would be written into the unpacked copy and thrown away with it.
            if fix { throw LintConfigurationError(source: root, message: "--fix cannot change files inside an archive; unpack it and lint the app") }
            do {
                let directory = try TemporaryDirectory(prefix: "devkit-lint-")
                do {
                    let classifier = registry.classifier
                    let (app, name) = try unpacker.unpack(root, into: directory.path) { classifier.kind(forName: $0) != nil }
                    unpacked.append(UnpackedArchive(directory: directory, root: app, shownAs: "\(root)!\(name)"))
                    roots.append(app)
                } catch {
                    directory.removeAll()
                    unpackErrors.append(error.inFile(root).description)
                }
            } catch {
                unpackErrors.append("\(error.path): error: \(error.reason)")
            }
        }
        var result = try lint(roots: roots, run: run, jobs: jobs, fix: fix)
        result.inputErrors = unpackErrors + result.inputErrors
        result.warnings = warnings
        for archive in unpacked { archive.rename(&result) }
        return result
    }

    /// Lints `roots` (files and directories) with `run`, directory checks included.
    private func lint(roots: [String], run: LintRun, jobs: Int, fix: Bool) throws(LintConfigurationError) -> LintResult {
        let (files, walkErrors) = run.files(for: roots)
        var result = run.lint(files, jobs: jobs)
        if fix { result = run.fix(result, roots: roots) }
        for root in roots where DirectoryWalk.type(of: root) == .directory {
            for check in directoryChecks where check.applies(to: root) {
                let (findings, errors) = check.check(root, engine: run.engine)
                result.findings += findings
                result.inputErrors += errors
            }
        }
        result.inputErrors = walkErrors + result.inputErrors
        return result
    }

    /// The engine and file finder for these settings, from the current directory; the `--app`
    /// reader's remarks go to `warnings`.
    public func makeRun(warnings: inout [String]) throws(LintConfigurationError) -> LintRun {
        let cwd = DirectoryWalk.currentDirectory()
        let settings = try selection.configuration(currentDirectory: cwd, registry: registry)
        var options = PlistLintOptions(isBuiltProduct: isBuiltProduct, configuration: configuration)
        if let projectDirectory {
            guard DirectoryWalk.type(of: projectDirectory) == .directory else {
                throw LintConfigurationError(source: projectDirectory, message: "not a directory (--project-dir)")
            }
            let names = DirectoryWalk.files(under: projectDirectory, descend: { _ in true }, include: { _ in true }).files
            options.projectFileNames = Set(names.map { $0.split(separator: "/").last.map(String.init) ?? $0 })
        }
        if let appInfoPath { options.appInfo = try Self.readAppInfo(appInfoPath, warnings: &warnings) }
        let engine = try LintEngine(registry: registry, configuration: settings, options: options, currentDirectory: cwd)
        return LintRun(engine: engine, gitIgnore: GitIgnore.load(from: cwd), asksGit: true)
    }

    /// The property list at `path` (`-`: standard input), any format.
    static func readAppInfo(_ path: String, warnings: inout [String]) throws(LintConfigurationError) -> PlistValue {
        let bytes: [UInt8]
        do { bytes = try FileIO.read(path, kind: .configuration) } catch { throw LintConfigurationError(source: error.path, message: error.reason) }
        do {
            let document = try PropertyListCoding.read(bytes)
            warnings += document.warnings.map { "\(path): warning: \($0)" }
            return document.value
        } catch {
            let named = error.diagnostic.inFile(path == "-" ? "<stdin>" : path)
            throw LintConfigurationError(source: named.location ?? path, message: named.message)
        }
    }
}
