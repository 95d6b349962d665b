import System
import PropertyList

/// One `devkit lint` run over paths: finds the files (walking directories), lints them on
/// several threads, applies fixes. The command-line layer only parses flags and prints.
public struct LintRun: Sendable {
    public let engine: LintEngine
    /// The hand-written matcher, for walks outside a git work tree.
    public let gitIgnore: GitIgnore
    /// Whether a walk inside a git work tree asks git what is ignored (`GitWorkTreeFiles`)
    /// instead of `gitIgnore`.
    public let asksGit: Bool

    public init(engine: LintEngine, gitIgnore: GitIgnore = GitIgnore(), asksGit: Bool = false) {
        self.engine = engine
        self.gitIgnore = gitIgnore
        self.asksGit = asksGit
    }

    /// The files to lint: named files as they are (unless excluded); directories walked for
    /// the kinds devkit knows, skipping hidden, excluded and .gitignored entries.
    public func files(for paths: [String]) -> (files: [String], errors: [String]) {
        var files: [String] = []
        var errors: [String] = []
        for path in paths {
            switch DirectoryWalk.type(of: path) {
            case .directory:
                // One git process per walked directory, none for named files (a pre-commit
                // hook names files) and none outside a repository.
                let git = asksGit ? GitWorkTreeFiles.list(in: absolute(path)) : nil
                let walk = DirectoryWalk.files(
                    under: path,
                    descend: { !engine.isExcluded($0) && !ignored($0, git) },
                    include: { engine.walkIncludes($0) && !ignored($0, git) })
                files += walk.files
                errors += walk.errors.map { "\($0.path): error: \($0.reason)" }
            case .missing where path != FileIO.standardStream:
                errors.append("\(path): error: no such file or directory")
            default:
                if !engine.isExcluded(path) { files.append(path) }
            }
        }
        return (files, errors)
    }

    private func ignored(_ path: String, _ git: GitWorkTreeFiles?) -> Bool {
        if let git { return git.ignores(absolute(path)) }
        guard !gitIgnore.isEmpty else { return false }
        return gitIgnore.ignores(absolute(path))
    }

    private func absolute(_ path: String) -> String {
        Path.normalize(path.hasPrefix("/") ? path : engine.currentDirectory + "/" + path)
    }

    /// Lints `files` on `jobs` threads; results keep the files' order.
    public func lint(_ files: [String], jobs: Int) -> LintResult {
        let outcomes = ParallelMap.map(files, jobs: jobs) { path -> Outcome in
            do throws(FileIOError) {
                return .findings(engine.lint(path: path, bytes: try FileIO.read(path, kind: .propertyList)))
            } catch {
                return .unreadable("\(error.path): error: \(error.reason)")
            }
        }
        var result = LintResult(findings: [], inputErrors: [], activeRules: engine.activeRules)
        for outcome in outcomes {
            switch outcome {
            case .findings(let f): result.findings += f
            case .unreadable(let message): result.inputErrors.append(message)
            }
        }
        return result
    }

    enum Outcome: Sendable {
        case findings([Finding])
        case unreadable(String)
    }

    /// Applies the fixes of `findings` file by file (atomic writes, each file locked from read
    /// to write), then lints those files again; returns the run's result with the fixed files'
    /// findings replaced. A file whose real path (symlinks followed) is outside every real
    /// path of `roots` (the linted files and directories) is not written: its findings stay,
    /// with an input error saying why. Read-only files and other users' files are not written.
    public func fix(_ result: LintResult, roots: [String] = ["."]) -> LintResult {
        var byFile: [String: [PlistFix]] = [:]
        for finding in result.findings { if let fix = finding.fix { byFile[finding.file, default: []].append(fix) } }
        guard !byFile.isEmpty else { return result }
        var out = result
        var relinted: [String: [Finding]] = [:]
        let trees = roots.compactMap(FileIO.realTree)
        for (path, fixes) in byFile.sorted(by: { $0.key < $1.key }) {
            guard let real = FileIO.realPath(path), trees.contains(where: { real == $0 || real.hasPrefix($0 == "/" ? "/" : $0 + "/") }) else {
                out.inputErrors.append("\(path): error: fix not applied: it resolves through a symlink to \(FileIO.realPath(path) ?? "a missing file"), outside the linted tree")
                continue
            }
            do {
                let file = try LockedFile(path)
                let fixed = try FixApplier.apply(fixes, to: file.bytes)
                if fixed != file.bytes {
                    try file.replace(with: fixed, backup: false, force: false)
                    out.fixedFiles.append(path)
                }
                relinted[path] = engine.lint(path: path, bytes: fixed)
            } catch let error as FileIOError {
                out.inputErrors.append("\(error.path): error: \(error.reason)")
            } catch {
                out.inputErrors.append("\(path): error: cannot apply fixes: \(error)")
            }
        }
        // Replace each fixed file's findings where its first finding was.
        var findings: [Finding] = []
        var emitted = Set<String>()
        for finding in result.findings {
            guard let again = relinted[finding.file] else { findings.append(finding); continue }
            if emitted.insert(finding.file).inserted { findings += again }
        }
        out.findings = findings
        return out
    }
}
