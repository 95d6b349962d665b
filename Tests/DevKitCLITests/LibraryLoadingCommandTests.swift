import DevKitTestSupport
import Foundation
import Testing

/// Which shared libraries a command loads: only those its work needs (libdw, expat and
/// libyaml open at their first call; `--version` loads none of them), read from the dynamic
/// loader's own trace (`LD_DEBUG=files`). A library that cannot be loaded is one line, exit 2.
@Suite struct LibraryLoadingCommandTests {
    static let lazyLibraries = ["libdw.so.1", "libelf.so.1", "libexpat.so.1", "libyaml-0.so.2", "libzip.so", "libdebuginfod.so.1", "libcurl", "libcrypto.so"]

    /// The sonames the loader opened while devkit ran `arguments`.
    static func loadedLibraries(_ arguments: [String], environment: [String: String] = [:]) throws -> (CLI.Result, Set<String>) {
        var environment = environment
        environment["LD_DEBUG"] = "files"
        let result = try CLI.run(arguments, environment: environment)
        var loaded: Set<String> = []
        for line in result.stderr.split(separator: "\n") {
            // "  1234:	file=libexpat.so.1 [0];  dynamically loaded by ..."
            guard let range = line.range(of: "file=") else { continue }
            let name = line[range.upperBound...].prefix { $0 != " " && $0 != "[" && $0 != ";" }
            loaded.insert(String(name))
        }
        return (result, loaded)
    }

    static func loaded(_ prefix: String, in libraries: Set<String>) -> Bool {
        libraries.contains { $0.hasPrefix(prefix) }
    }

    /// `source` compiled with the system's C compiler into `directory/output`; nil without one.
    static func compile(_ source: String, to output: String, flags: [String], in directory: URL) throws -> URL? {
        guard let compiler = TestProcess.find("cc", "clang", "gcc") else {
            print("skipped: no C compiler")
            return nil
        }
        let file = directory.appendingPathComponent(output + ".c")
        try source.write(to: file, atomically: true, encoding: .utf8)
        let product = directory.appendingPathComponent(output)
        let build = try TestProcess.run(compiler, flags + [file.path, "-o", product.path])
        #expect(build.status == 0)
        return product
    }

    @Test func versionLoadsNoneOfTheLazyLibraries() throws {
        let (result, loaded) = try Self.loadedLibraries(["--version"])
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("0."))
        #expect(loaded.contains { $0.hasPrefix("libc.so") }, "the trace names no library at all: \(loaded)")
        for library in Self.lazyLibraries {
            #expect(!Self.loaded(library, in: loaded), "--version loaded \(library)")
        }
    }

    /// A plist of the common shape is read by the shim's direct tokenizer: no library at all.
    /// One it leaves to expat (CDATA here) loads expat, and only expat.
    @Test func anXMLPlistLoadsExpatOnlyWhenTheDirectTokenizerLeavesItToExpat() throws {
        let (common, commonLoaded) = try Self.loadedLibraries(["plist", "get", "Samples/Info.plist", "CFBundleIdentifier"])
        #expect(common.status == 0, "\(common.stderr.suffix(400))")
        #expect(!Self.loaded("libexpat.so.1", in: commonLoaded))

        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("cdata.plist")
        try Data("<plist version=\"1.0\"><dict><key>a</key><string><![CDATA[<b>]]></string></dict></plist>\n".utf8).write(to: file)
        let (result, loaded) = try Self.loadedLibraries(["plist", "get", file.path, "a"])
        #expect(result.status == 0, "\(result.stderr.suffix(400))")
        #expect(result.stdout == "\"<b>\"\n")
        #expect(Self.loaded("libexpat.so.1", in: loaded))
        for library in ["libdw.so.1", "libyaml-0.so.2", "libzip.so"] {
            #expect(!Self.loaded(library, in: loaded), "plist get loaded \(library)")
            #expect(!Self.loaded(library, in: commonLoaded), "plist get loaded \(library)")
        }
    }

    @Test func symbolicatingAnELFBinaryLoadsLibdw() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        guard let binary = try Self.compile("int answer(int x) { return x * 42; }\nint main(int c, char **v) { return answer(c); }\n",
                                            to: "small", flags: ["-g", "-O0"], in: directory) else { return }
        let (result, loaded) = try Self.loadedLibraries(
            ["symbolicate", "--binary", binary.path, "0x1000"],
            environment: ["XDG_CACHE_HOME": directory.appendingPathComponent("cache").path])
        #expect(result.status == 0, "\(result.stderr.suffix(400))")
        #expect(Self.loaded("libdw.so.1", in: loaded))
        #expect(!Self.loaded("libexpat.so.1", in: loaded))
        #expect(!Self.loaded("libdebuginfod.so.1", in: loaded))

        // A server named, but the binary's own DWARF is enough: nothing is fetched, and
        // neither devkit nor libdw opens libdebuginfod.
        let (named, namedLoaded) = try Self.loadedLibraries(
            ["symbolicate", "--no-cache", "--binary", binary.path, "0x1000"],
            environment: ["XDG_CACHE_HOME": directory.appendingPathComponent("cache").path, "DEBUGINFOD_URLS": "http://127.0.0.1:9"])
        #expect(named.status == 0, "\(named.stderr.suffix(400))")
        #expect(Self.loaded("libdw.so.1", in: namedLoaded))
        #expect(!Self.loaded("libdebuginfod.so.1", in: namedLoaded))
        #expect(!Self.loaded("libcurl", in: namedLoaded))
    }

    /// A binary with no DWARF anywhere here is what a debuginfod server would be asked for:
    /// without DEBUGINFOD_URLS (CLI.run removes the machine's), or with it and --offline,
    /// libdebuginfod and the libcurl it brings are never loaded.
    @Test func symbolicatingWithoutAServerLoadsNoLibdebuginfod() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        guard let binary = try Self.compile("int answer(int x) { return x * 42; }\nint main(int c, char **v) { return answer(c); }\n",
                                            to: "nodwarf", flags: ["-O0", "-Wl,--build-id"], in: directory) else { return }
        let cache = directory.appendingPathComponent("cache").path
        for (arguments, environment) in [([String](), ["XDG_CACHE_HOME": cache]),
                                         (["--offline"], ["XDG_CACHE_HOME": cache, "DEBUGINFOD_URLS": "http://127.0.0.1:9"])] {
            let (result, loaded) = try Self.loadedLibraries(["symbolicate"] + arguments + ["--binary", binary.path, "0x1000"], environment: environment)
            #expect(result.status == 0, "\(result.stderr.suffix(400))")
            #expect(!Self.loaded("libdebuginfod.so.1", in: loaded), "\(arguments) loaded libdebuginfod")
            #expect(!Self.loaded("libcurl", in: loaded), "\(arguments) loaded libcurl")
        }
    }

    /// The other side: a fetch opens libdebuginfod (here a server that refuses: port 9, discard,
    /// which nothing serves on 127.0.0.1), so the test above can fail.
    /// A profile's signature is checked by libcrypto, opened then; a plist command never opens it.
    @Test func inspectingAProfileLoadsLibcrypto() throws {
        guard ProfileFactory.opensslAvailable else { print("skipped: openssl not installed"); return }
        let factory = try ProfileFactory()
        let profile = try factory.write(try factory.sign(try factory.payload()), name: "loading.mobileprovision")
        let (result, loaded) = try Self.loadedLibraries(["provision", "inspect", profile.path])
        #expect(result.status == 0, "\(result.stderr.suffix(400))")
        #expect(result.stdout.contains("signature valid"), "\(result.stdout.prefix(400))")
        #expect(Self.loaded("libcrypto.so", in: loaded))
        let (plist, plistLoaded) = try Self.loadedLibraries(["plist", "get", "Samples/Info.plist", "CFBundleIdentifier"])
        #expect(plist.status == 0)
        #expect(!Self.loaded("libcrypto.so", in: plistLoaded))
    }

    @Test func askingAServerLoadsLibdebuginfod() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        guard let binary = try Self.compile("int main(void) { return 0; }\n", to: "nodwarf", flags: ["-O0", "-Wl,--build-id"], in: directory) else { return }
        let (result, loaded) = try Self.loadedLibraries(
            ["symbolicate", "--binary", binary.path, "0x1000"],
            environment: ["XDG_CACHE_HOME": directory.appendingPathComponent("cache").path,
                          "DEBUGINFOD_URLS": "http://127.0.0.1:9", "DEBUGINFOD_CACHE_PATH": directory.appendingPathComponent("client").path])
        #expect(result.status == 0, "\(result.stderr.suffix(400))")
        #expect(Self.loaded("libdebuginfod.so.1", in: loaded))
    }

    @Test func aLibraryThatCannotBeLoadedIsOneLineAndExit2() throws {
        // A libyaml-0.so.2 without libyaml's functions, found first through LD_LIBRARY_PATH.
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        guard try Self.compile("int devkit_not_libyaml;\n", to: "libyaml-0.so.2", flags: ["-shared", "-fPIC"], in: directory) != nil else { return }
        let config = directory.appendingPathComponent("devkit.yml")
        try "lint:\n  disabled_rules: [infoplist.deprecated-key]\n".write(to: config, atomically: true, encoding: .utf8)
        let result = try CLI.run(["lint", "--config", config.path, "Samples/lint/Clean"],
                                 environment: ["LD_LIBRARY_PATH": directory.path])
        #expect(result.status == 2)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("devkit: cannot load libyaml-0.so.2 ("))
        #expect(result.stderr.contains("yaml_"))
        #expect(result.stderr.hasSuffix("; install libyaml-0-2\n"))
    }
}
