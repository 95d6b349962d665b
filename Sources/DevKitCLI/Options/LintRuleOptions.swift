import ArgumentParser
import System
import LintConfigFile
import LintKit
import PropertyList

#if canImport(Glibc)
import Glibc
#endif

/// Which rules run and what they know about the product (`devkit lint` and rule-based
/// subcommands).
struct LintRuleOptions: ParsableArguments {
    @Option(name: .customLong("enable"), help: ArgumentHelp("Run a rule that is off (by default or in the config).", valueName: "rule"))
    var enabled: [String] = []

    @Option(name: .customLong("disable"), help: ArgumentHelp("Do not run a rule.", valueName: "rule"))
    var disabled: [String] = []

    @Option(name: .customLong("config"), help: ArgumentHelp("Settings file to use instead of the nearest .devkit.yml.", valueName: "file"))
    var configPath: String?

    @Flag(help: "Ignore .devkit.yml files.")
    var noConfig = false

    @Flag(help: "The files are a built product: build settings must be expanded, binary plists are expected.")
    var builtProduct = false

    @Option(help: "The configuration the files are for (debug|release); release turns on distribution checks.")
    var configuration: BuildConfiguration?

    @Option(help: ArgumentHelp("The project folder, to check that files named by keys (main nib, storyboard) exist.", valueName: "dir"))
    var projectDir: String?

    @Option(help: ArgumentHelp("The app's Info.plist, to compare an OTA manifest with.", valueName: "file"))
    var app: String?

    static var processorCount: Int { max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }

    func unknownRule(_ id: String, in registry: RuleRegistry) -> String {
        let hint = EditDistance.closest(to: id, in: registry.descriptions.map(\.id)).map { "; did you mean \"\($0)\"?" } ?? ""
        return "error: unknown rule \"\(id)\"\(hint) (devkit lint --list-rules lists them)"
    }

    /// The engine and file finder for these options and the nearest config file.
    func makeRun(registry: RuleRegistry) throws(CommandFailure) -> LintRun {
        let cwd = DirectoryWalk.currentDirectory()
        var configuration = LintConfiguration()
        if !noConfig, let path = configPath.map({ Path.normalize($0.hasPrefix("/") ? $0 : cwd + "/" + $0) }) ?? LintConfigFile.find(from: cwd) {
            do { configuration = try LintConfigFile.load(path) } catch { throw .input(error.description) }
        }
        for id in enabled + disabled where registry.rule(id: id) == nil { throw .input(unknownRule(id, in: registry)) }
        configuration.apply(enable: enabled, disable: disabled)
        var options = LintOptions(isBuiltProduct: builtProduct, configuration: self.configuration)
        if let projectDir {
            guard DirectoryWalk.type(of: projectDir) == .directory else { throw .input("\(projectDir): error: not a directory (--project-dir)") }
            let names = DirectoryWalk.files(under: projectDir, descend: { _ in true }, include: { _ in true }).files
            options.projectFileNames = Set(names.map { $0.split(separator: "/").last.map(String.init) ?? $0 })
        }
        if let app { options.appInfo = try PlistLoader.load(app, format: nil).value }
        do {
            return LintRun(engine: try LintEngine(registry: registry, configuration: configuration, options: options, currentDirectory: cwd),
                           gitIgnore: GitIgnoreLoader.load(from: cwd))
        } catch {
            throw .input(error.description)
        }
    }
}

extension BuildConfiguration: ExpressibleByArgument {}

/// Reads the .gitignore of the current directory and of the repository root above it.
enum GitIgnoreLoader {
    static func load(from directory: String) -> GitIgnore {
        var ignore = GitIgnore()
        var dir = directory
        while true {
            if let bytes = try? FileIO.read(dir + "/.gitignore") {
                ignore.add(String(decoding: bytes, as: UTF8.self), directory: dir)
            }
            if DirectoryWalk.type(of: dir + "/.git") != .missing || dir == "/" { break }
            dir = Path.normalize(dir + "/..")
        }
        return ignore
    }
}
