// swift-tools-version: 6.1
import PackageDescription

/// Scripts/link, absolute: linker flags are not relative to the package.
let linkScripts = String(#filePath.dropLast("Package.swift".count)) + "Scripts/link"

let package = Package(
    name: "devkit",
    products: [
        .executable(name: "devkit", targets: ["DevKitCLI"]),
        .library(name: "PropertyList", targets: ["PropertyList"]),
        // The heap recorder that `devkit heap record` preloads: libdevkit-heap.so, pure C.
        .library(name: "devkit-heap", type: .dynamic, targets: ["HeapRecorder"]),
        .library(name: "Symbolication", targets: ["Symbolication"]),
        .library(name: "ObjectFile", targets: ["ObjectFile"]),
        .library(name: "Provisioning", targets: ["Provisioning"]),
        // For Scripts/fuzz-package's XML tokenizer differential (direct against expat).
        .library(name: "PlistXMLShim", targets: ["PlistXMLShim"]),
        // For Scripts/fuzz-package's crash-log target.
        .library(name: "CrashReport", targets: ["CrashReport"]),
        // For Scripts/fuzz-package's heap-recording target.
        .library(name: "HeapAnalysis", targets: ["HeapAnalysis"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.1.0"),
        .package(url: "https://github.com/apple/swift-asn1", from: "1.3.0"),
    ],
    targets: [
        // The one error shape (file, position, severity, message, kind) that every module's
        // error converts to, and its one rendering.
        .target(name: "Diagnostics"),
        // Bounds-checked reading of untrusted bytes; shared by every binary parser.
        .target(name: "BinaryReading", dependencies: ["Diagnostics"]),

        // expat's header as a system library. No pkgConfig here or on CLibDW and CLibYAML:
        // its `-l` flags would load the libraries in every devkit process; the functions come
        // from LazyLibraries instead.
        .systemLibrary(
            name: "CLibExpat",
            providers: [.apt(["libexpat1-dev"])]
        ),
        // libdw, libelf, expat, libyaml and libdebuginfod opened with dlopen at their first
        // call: one forwarder per function devkit calls, with the library header's own signature.
        .target(
            name: "LazyLibraries",
            dependencies: ["CLibCrypto", "CLibDW", "CLibDebuginfod", "CLibExpat", "CLibYAML", "CLibZstd"]
        ),
        // zstd's header as a system library (functions from LazyLibraries in devkit; the heap
        // recorder links libzstd): compressed heap recordings, format version 4.
        .systemLibrary(
            name: "CLibZstd",
            providers: [.apt(["libzstd-dev"])]
        ),
        // OpenSSL's libcrypto headers as a system library (functions from LazyLibraries):
        // signatures and digests, imported only by Provisioning's LibCryptoCalls.
        // Not swift-crypto and swift-certificates: their vendored BoringSSL would be a third of
        // every release build, the one pre-commit makes of the hooks included.
        .systemLibrary(
            name: "CLibCrypto",
            providers: [.apt(["libssl-dev"])]
        ),
        // Plain-C tokenizer over expat's push parser; its public header names no expat type.
        .target(
            name: "PlistXMLShim",
            dependencies: ["CLibExpat", "LazyLibraries"]
        ),

        // JSON output for reports: `JSONValue` (ordered objects) and the one JSON layout,
        // which the property-list JSON writer shares.
        .target(name: "JSONWriter"),

        // The one property-list parser/serializer: XML, binary, OpenStep/.strings, JSON.
        .target(
            name: "PropertyList",
            dependencies: [
                "BinaryReading",
                "Diagnostics",
                "JSONWriter",
                "PlistXMLShim",
                "System",
                .product(name: "OrderedCollections", package: "swift-collections"),
            ]
        ),

        // Property-list tools over the codecs: the lossless editor (XML and OpenStep documents
        // edited in place, source maps), PlistBuddy scripts, diff, fmt and text printing, and the
        // file-level front ends the `devkit plist` commands call.
        .target(
            name: "PlistTools",
            dependencies: [
                "Diagnostics",
                "JSONWriter",
                "PropertyList",
                "System",
                .product(name: "OrderedCollections", package: "swift-collections"),
            ]
        ),

        // The one place that talks to the operating system (and the only one with
        // `#if canImport(Glibc)`): whole-file reads and atomic replacement with errno kept,
        // mapped files, directory walks, the monotonic clock, environment, terminals, child
        // processes. devkit builds on Linux only (libdw, libunwind, LD_PRELOAD).
        .target(name: "System", dependencies: ["Diagnostics", "SystemCalls"]),
        // The calls System cannot make from Swift: `sync_file_range`, which Swift's Glibc
        // module does not declare, and the SIGBUS handler that guards reads of a mapping.
        .target(name: "SystemCalls"),

        // The generic lint engine: rules, registry, findings, configuration, suppressions,
        // fixes, reporters, the file walk and pool. Rule packs bring their rules and options.
        .target(
            name: "LintKit",
            dependencies: ["Diagnostics", "JSONWriter", "PropertyList", "PlistTools", "System", .product(name: "OrderedCollections", package: "swift-collections")]
        ),

        // libyaml's header as a system library (functions from LazyLibraries); imported only by
        // LintConfigFile's YAMLCalls.
        .systemLibrary(
            name: "CLibYAML",
            providers: [.apt(["libyaml-dev"])]
        ),
        // Reads `.devkit.yml` (libyaml) into LintKit's configuration.
        .target(name: "LintConfigFile", dependencies: ["CLibYAML", "LazyLibraries", "Diagnostics", "LintKit", "System"]),

        // The plist rule pack (hygiene, Info.plist, entitlements, OTA manifests), its options
        // (--built-product, --configuration, --project-dir, --app) and `devkit lint`'s front end.
        .target(
            name: "PlistChecks",
            dependencies: ["Diagnostics", "PropertyList", "PlistTools", "LintKit", "LintConfigFile", "System", .product(name: "OrderedCollections", package: "swift-collections")]
        ),

        // Whole-bundle checks for `devkit lint App.app`: the required-reason APIs each Mach-O
        // imports (ObjectFile) against its bundle's privacy manifest, commonly used SDKs' manifests.
        .target(name: "BundleChecks", dependencies: ["BinaryReading", "Diagnostics", "LintKit", "ObjectFile", "PlistChecks", "PlistTools", "PropertyList", "Provisioning", "System"]),

        // libunwind (local unwinding) as a pkg-config system library, for the heap recorder.
        .systemLibrary(
            name: "CLibUnwind",
            pkgConfig: "libunwind",
            providers: [.apt(["libunwind-dev"])]
        ),
        // The heap recording format (header only), shared by the recorder and its reader.
        .target(name: "HeapRecordFormat", exclude: ["FORMAT.md"]),
        // libdevkit-heap.so: interposes the malloc family (LD_PRELOAD), records stacks with
        // libunwind, writes the recording. No Swift runtime inside.
        .target(
            name: "HeapRecorder",
            dependencies: ["HeapRecordFormat", "CLibUnwind"],
            // No frame pointer where it is not needed: the recorder's hot paths had one register
            // fewer and a push and a move more per call (Scripts/bench/heap `swift`: 33 M more
            // instructions of the agent's 960 M). The interposed functions keep theirs, which
            // the stack walk starts from: __builtin_frame_address(0) makes one in each.
            cSettings: [.unsafeFlags(["-Xclang", "-mframe-pointer=none"])],
            // -nostartfiles: no swiftrt.o (Swift image registration) in a C library; see
            // hooks.c for how the Swift runtime is kept out of its dependencies. Nor the
            // toolchain's library directory as RUNPATH: installed (Scripts/install, the .deb),
            // the recorder must not search /opt/swift.
            linkerSettings: [.linkedLibrary("unwind"), .linkedLibrary("zstd"), .linkedLibrary("dl"), .unsafeFlags(["-nostartfiles", "-no-toolchain-stdlib-rpath"])]
        ),
        // Reads heap recordings (mapped): generations, live blocks, grouping, diffs, reports,
        // and heapdiff's front end. Symbols come through its HeapSymbolizer protocol: no libdw here.
        .target(
            name: "HeapAnalysis",
            dependencies: [
                "BinaryReading",
                "CLibZstd",
                "Diagnostics",
                "FrameModel",
                "HeapRecordFormat",
                "LazyLibraries",
                "JSONWriter",
                "PropertyList",
                "System",
                .product(name: "OrderedCollections", package: "swift-collections"),
            ]
        ),
        // HeapAnalysis's HeapSymbolizer over Symbolication (libdw): the glue above both.
        .target(name: "HeapSymbolication", dependencies: ["HeapAnalysis", "FrameModel", "Symbolication"]),
        // Runs a program with the heap recorder preloaded; forwards signals, sends marks.
        .target(name: "HeapLauncher", dependencies: ["Diagnostics", "System"]),
        // Object files in pure Swift over ByteCursor: ELF (sections, symbols, build-id,
        // debuglink) and Mach-O (load commands, the code signature's SuperBlob).
        .target(name: "ObjectFile", dependencies: ["BinaryReading", "System"]),

        // libzip's header (types, constants) as a system library; imported only by
        // Provisioning's ZipCalls, which opens libzip.so with dlopen on the first .ipa read. No
        // pkgConfig: its `-lzip` would load libzip and libcrypto in every devkit process (4.4 M
        // of --version's 17.6 M instructions; Scripts/bench/RESULTS.md, start-up).
        .systemLibrary(
            name: "CLibZip",
            providers: [.apt(["libzip-dev"])]
        ),
        // Zip archives from outside (.ipa, .dSYM.zip) through libzip (opened at the first
        // archive): names, counts, sizes and inflation checked; read into memory or unpacked.
        .target(name: "ZipArchives", dependencies: ["CLibZip", "Diagnostics", "System"]),
        // Provisioning profiles: CMS SignedData and X.509 certificates (swift-asn1), signature
        // checks and digests (OpenSSL's libcrypto: LibCryptoCalls), the profile model, .app and
        // .ipa bundles (libzip).
        .target(
            name: "Provisioning",
            dependencies: [
                "BinaryReading",
                "Diagnostics",
                "PropertyList",
                "PlistTools",
                "System",
                "ObjectFile",
                "ZipArchives",
                "CLibCrypto",
                "LazyLibraries",
                .product(name: "OrderedCollections", package: "swift-collections"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ]
        ),

        // elfutils' libdw/libelf headers as a system library (functions from LazyLibraries);
        // imported by one entry file per library: ElfUtils' DWCalls (libdw) and CoreDump's
        // DwflCalls (libdwfl).
        .systemLibrary(
            name: "CLibDW",
            providers: [.apt(["libdw-dev", "libelf-dev"])]
        ),
        // elfutils' debuginfod client header as a system library (functions from
        // LazyLibraries: linked, libdebuginfod would load libcurl in every devkit process);
        // imported only by ElfUtils' DebuginfodCalls.
        .systemLibrary(
            name: "CLibDebuginfod",
            providers: [.apt(["libdebuginfod-dev"])]
        ),
        // libdw wrapped in Swift types: units, line tables, functions and inlined calls; and
        // the debuginfod client (debug files and executables fetched by build-id).
        .target(name: "ElfUtils", dependencies: ["BinaryReading", "CLibDW", "CLibDebuginfod", "LazyLibraries", "Diagnostics", "System"]),
        // The vocabulary of symbolication, without libdw: a symbolicated frame (function, source
        // position, inlined or not) and a reference to a loaded image. Shared by Symbolication,
        // the crash readers and heap analysis.
        .target(name: "FrameModel"),
        // The symbol cache's records and header offsets (header only, C): their layout is fixed
        // and checked at compile time; Symbolication writes and maps them.
        .target(name: "SymbolCacheFormat"),
        // The Swift runtime's C++ demangler called with display options (C++, no public header
        // for them): full Swift names with sugar, as swift-demangle prints them. Reachable when
        // the runtime is linked statically (release); see RuntimeDemangler.cpp.
        .target(name: "RuntimeDemangler"),
        // Address -> frames (function, file, line, column, inlined chain) through a per-image index.
        .target(name: "Symbolication", dependencies: ["Diagnostics", "FrameModel", "JSONWriter", "SymbolCacheFormat", "ObjectFile", "ElfUtils", "BinaryReading", "System", "RuntimeDemangler"]),
        // Crash logs (Apple .crash text, .ips JSON, Swift backtraces, sanitizer reports, address
        // lists) read into one model, images as FrameModel references; no symbolication.
        .target(
            name: "CrashReport",
            dependencies: ["Diagnostics", "FrameModel", "PropertyList", .product(name: "OrderedCollections", package: "swift-collections")]
        ),
        // ELF core files read through libdwfl (threads, unwound frames, registers, modules) into CrashReport.
        // `open` refusing non-regular files without blocking while a thread holds a guard:
        // libdwfl opens the paths a core names itself (NT_FILE notes, the link map).
        .target(name: "OpenGuard"),
        .target(name: "CoreDump", dependencies: ["Diagnostics", "CLibDW", "LazyLibraries", "CrashReport", "BinaryReading", "ObjectFile", "System", "OpenGuard"]),

        // Crash reports symbolicated: images found by UUID/build-id under search paths, frames
        // through Symbolication, register-decoding rules, renderers (same, json, summary); the
        // `devkit symbolicate` front end (address lookups, crash logs, cores, address lists).
        .target(
            name: "CrashSymbolication",
            dependencies: ["CrashReport", "CoreDump", "Diagnostics", "ElfUtils", "FrameModel", "JSONWriter", "Symbolication", "ObjectFile", "System", "PropertyList", "BinaryReading",
                           .product(name: "OrderedCollections", package: "swift-collections"), "ZipArchives"]
        ),

        // Provisioning lint rules on the LintKit engine (one rule a file, examples as tests),
        // and `devkit provision lint`'s settings and linter (apps' Info.plists get the plist pack).
        .target(name: "ProvisioningLint", dependencies: ["Diagnostics", "LintKit", "LintConfigFile", "PlistChecks", "Provisioning", "PropertyList", "PlistTools", "System"]),

        // Writes the git commit being built into DevKitCLI (BuildInfo.commit) for `--version`.
        .plugin(name: "BuildInfo", capability: .buildTool()),

        .executableTarget(
            name: "DevKitCLI",
            dependencies: [
                "Diagnostics",
                "PropertyList",
                "PlistTools",
                "PlistChecks",
                "BundleChecks",
                "LintKit",
                "LintConfigFile",
                "System",
                "HeapAnalysis",
                "HeapSymbolication",
                "HeapLauncher",
                "Provisioning",
                "ProvisioningLint",
                "Symbolication",
                "CrashReport",
                "CrashSymbolication",
                "CoreDump",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            // The release is linked as a position-dependent executable: a PIE devkit applied
            // 74,000 relative relocations at every start (Swift metadata holds absolute
            // pointers), 200 page faults and about a third of `devkit --version`'s time
            // (Scripts/bench/startup). The shared libraries it loads keep their address
            // randomisation. It exports one symbol, OpenGuard's `open` (libdw, opened later,
            // must find it), not the 19,500 the driver's `-export-dynamic` gives: the Swift
            // runtime's start-up `dladdr` walks them all (0.7 M instructions). gold cannot undo
            // `-export-dynamic`, lld can. The C++ runtime the Swift runtime needs is linked
            // from libstdc++.a and libgcc_eh.a (Scripts/link/libstdc++.so points the linker at
            // the archive): bound from the shared libstdc++, its symbols cost every start 1.7 M
            // of `devkit --version`'s 2 M instructions. No library devkit opens uses C++.
            // Debug builds, which link the Swift runtime dynamically, keep the defaults.
            linkerSettings: [.unsafeFlags([
                "-Xclang-linker", "-no-pie", "-use-ld=lld",
                "-Xlinker", "--no-export-dynamic", "-Xlinker", "--export-dynamic-symbol=open",
                "-L", linkScripts, "-Xclang-linker", "-static-libgcc",
            ], .when(configuration: .release))],
            plugins: ["BuildInfo"]
        ),

        .testTarget(name: "DiagnosticsTests", dependencies: ["Diagnostics"]),
        // Untrusted zip archives: unsafe names, counts, inflation, what unpacking writes.
        .testTarget(name: "ZipArchivesTests", dependencies: ["ZipArchives", "Diagnostics", "DevKitTestSupport"]),
        // Each lazily opened library loads at its first call and answers through its forwarders.
        .testTarget(name: "LazyLibrariesTests", dependencies: ["LazyLibraries", "CLibDW", "CLibDebuginfod", "CLibYAML", "PlistXMLShim"]),
        // The expat tokenizer's C API: tokens and their places, pieces, errors, refused entities.
        .testTarget(name: "PlistXMLShimTests", dependencies: ["PlistXMLShim", "DevKitTestSupport"]),
        .testTarget(name: "SystemTests", dependencies: ["System", "Diagnostics", "DevKitTestSupport"]),
        .testTarget(
            name: "PropertyListTests",
            dependencies: ["PropertyList", "BinaryReading", "JSONWriter", "PropertyListTestSupport", "DevKitTestSupport"]
        ),
        // The editor, PlistBuddy scripts, diff, fmt and the printer.
        .testTarget(
            name: "PlistToolsTests",
            dependencies: ["PlistTools", "PropertyList", "PropertyListTestSupport", "DevKitTestSupport"]
        ),
        .testTarget(name: "JSONWriterTests", dependencies: ["JSONWriter", "PropertyList"]),
        // Test helpers for property-list tests: the shared corpus, seeded random values.
        .target(
            name: "PropertyListTestSupport",
            dependencies: ["PropertyList", "DevKitTestSupport", .product(name: "OrderedCollections", package: "swift-collections")]
        ),
        // The lint engine: suppressions, positions in binary files, globs, .gitignore (over the
        // plist pack's rules); the reporters, JUnit and Checkstyle against the XSDs in Fixtures.
        .testTarget(name: "LintKitTests", dependencies: ["LintKit", "PlistChecks", "PropertyList", "PlistTools", "DevKitTestSupport"],
                    exclude: ["Fixtures"]),
        // `.devkit.yml` parsing, precedence and its errors; --config/--no-config/--enable/--disable.
        .testTarget(name: "LintConfigFileTests", dependencies: ["LintConfigFile", "LintKit", "PlistChecks", "PropertyList"]),
        // Every plist rule's examples; every rule on generated values; `devkit lint`'s front end.
        .testTarget(name: "PlistChecksTests", dependencies: ["PlistChecks", "LintKit", "LintConfigFile", "PropertyList", "DevKitTestSupport"]),
        // Every bundle rule's examples; apps built at test time by Scripts/fixtures/make-privacy-app.
        .testTarget(name: "BundleChecksTests", dependencies: ["BundleChecks", "LintKit", "PlistChecks", "ObjectFile", "PropertyList", "System", "DevKitTestSupport"]),
        // Reads real and damaged recordings; the HTML report of a recorded C program
        // (Programs/generations.c).
        .testTarget(
            name: "HeapAnalysisTests",
            dependencies: ["HeapAnalysis", "BinaryReading", "PropertyList", "HeapTestSupport", "CLibZstd", "HeapRecordFormat", "DevKitTestSupport"],
            exclude: ["Programs"]
        ),
        // libdevkit-heap.so itself, through `devkit heap record`: interposition, stacks, marks,
        // forks, cancelled pairs, the exit scan (against valgrind), a full disk. Programs/ holds
        // the C and Swift programs recorded, compiled by the tests.
        .testTarget(
            name: "HeapRecorderTests",
            dependencies: ["HeapAnalysis", "HeapTestSupport"],
            exclude: ["Programs"]
        ),
        // Programs run through HeapLauncher: statuses, signals, refusals.
        .testTarget(name: "HeapLauncherTests", dependencies: ["HeapLauncher", "System", "HeapTestSupport"]),
        // A recorded program symbolicated through the glue: function names and source lines.
        .testTarget(name: "HeapSymbolicationTests", dependencies: ["HeapSymbolication", "HeapAnalysis", "FrameModel", "HeapTestSupport"]),
        // Compiles and records the heap test programs with the built devkit (Foundation is fine:
        // test helpers only).
        .target(name: "HeapTestSupport", dependencies: ["DevKitTestSupport", "HeapAnalysis", "HeapSymbolication"]),
        // Test helpers (Foundation is fine here: never linked into devkit).
        .target(name: "DevKitTestSupport"),

        .testTarget(
            name: "ProvisioningTests",
            dependencies: ["Provisioning", "ObjectFile", "BinaryReading", "PropertyList", "DevKitTestSupport"]
        ),
        // Every provisioning rule's examples; the flags that become rule options.
        .testTarget(name: "ProvisioningLintTests", dependencies: ["ProvisioningLint", "LintKit", "LintConfigFile", "Provisioning", "PropertyList"]),
        // ByteCursor: byte orders, LEB128, bounded sub-cursors, errors with offsets.
        .testTarget(name: "BinaryReadingTests", dependencies: ["BinaryReading"]),
        // libdw through DWARFReader on a C file compiled at test time (Fixtures/inlined.c); the
        // debuginfod settings and errors (fetching is tested end to end in DevKitCLITests).
        .testTarget(name: "ElfUtilsTests", dependencies: ["ElfUtils", "Diagnostics", "DevKitTestSupport"], exclude: ["Fixtures"]),
        // ELF headers and the Mach-O reader on the Mach-O fixtures (Fixtures/macho, made by
        // Scripts/fixtures/make-macho; SymbolicationTests symbolicates them too); damaged files.
        .testTarget(name: "ObjectFileTests", dependencies: ["ObjectFile", "BinaryReading", "System", "DevKitTestSupport"], exclude: ["Fixtures"]),
        // Symbolication against llvm-symbolizer on C, C++ and Swift compiled at test time (and
        // ObjectFileTests' Mach-O fixtures), the symbol cache, damaged object files, demangling.
        .testTarget(
            name: "SymbolicationTests",
            dependencies: ["FrameModel", "Symbolication", "ObjectFile", "ElfUtils", "BinaryReading", "System", "DevKitTestSupport"],
            exclude: ["Fixtures"]
        ),
        // Every crash log of ../shared/corpus/crash against a golden summary; hostile inputs.
        .testTarget(
            name: "CrashReportTests",
            dependencies: ["CrashReport"],
            exclude: ["Snapshots"]
        ),
        // Crash logs symbolicated against the Mach-O fixtures (Fixtures/, made by
        // Scripts/fixtures/make-crash-fixtures) and Swift programs built at test time; every
        // register-decoding rule's examples.
        .testTarget(
            name: "CrashSymbolicationTests",
            dependencies: ["CrashSymbolication", "CrashReport", "Symbolication", "ObjectFile", "System", "DevKitTestSupport"],
            exclude: ["Fixtures"]
        ),
        // Cores of a C program compiled and crashed (under gdb) at test time, against eu-stack; hostile files.
        .testTarget(name: "OpenGuardTests", dependencies: ["OpenGuard"]),
        .testTarget(name: "CoreDumpTests", dependencies: ["CoreDump", "CrashReport", "DevKitTestSupport"], exclude: ["Programs"]),
        // Runs the built `devkit` binary end to end; golden outputs live in Snapshots/.
        .testTarget(
            name: "DevKitCLITests",
            dependencies: ["DevKitCLI", "PropertyList", "DevKitTestSupport"],
            exclude: ["Snapshots"]
        ),
    ]
)

// Release code reaches the metadata of concrete generic types (`Set<FileKind>`,
// `[String: RuleOptionValue]`) through accessor functions that pass the conformances they
// need, not through mangled names: a mangled name makes the runtime look each conformance up
// by scanning every conformance record in the binary, once per type, which cost `devkit lint`
// a third of its start-up instructions (Scripts/bench/startup). The price is some code size.
for target in package.targets where target.type == .regular || target.type == .executable {
    target.swiftSettings = (target.swiftSettings ?? []) + [.unsafeFlags(
        ["-Xfrontend", "-disable-concrete-type-metadata-mangled-name-accessors"], .when(configuration: .release))]
}
