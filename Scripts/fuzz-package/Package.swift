// swift-tools-version:5.3
// libFuzzer harnesses for the PropertyList readers, the object-file reader, the crash-log readers and the heap-recording reader (modelled on swift-protobuf's
// FuzzTesting package). Build and run them with Scripts/fuzz, which passes
// `-sanitize=fuzzer,address -parse-as-library --product NAME`; `swift build` alone does
// not link them.
//
// Tools version 5.3 on purpose, with plain `.target`s holding main.swift: from 5.5 on,
// SwiftPM links executables with `--defsym main=<Module>_main`, which does not exist
// when the entry point is libFuzzer's main (the link fails). swift-protobuf's FuzzTesting
// package does the same.
import PackageDescription

let targets = ["FuzzPlistBinary", "FuzzPlistXML", "FuzzPlistOpenStep", "FuzzPlistJSON"]

let package = Package(
    name: "DevKitFuzz",
    platforms: [.macOS("13.0")],  // as the root package
    dependencies: [
        .package(name: "devkit", path: "../.."),
    ],
    targets: [
        // Parse, and round-trip what parses: write in the same format, read again, compare.
        .target(
            name: "FuzzCommon",
            dependencies: [.product(name: "PropertyList", package: "devkit")]
        ),
        // The object-file reader and the symbolizer over arbitrary bytes (Scripts/fuzz object-file).
        .target(
            name: "FuzzObjectFile",
            dependencies: [
                .product(name: "ObjectFile", package: "devkit"),
                .product(name: "Symbolication", package: "devkit"),
            ]
        ),
        // The Mach-O load-command walk and code-signature SuperBlob (ObjectFile/MachO).
        .target(name: "FuzzMachO", dependencies: [.product(name: "ObjectFile", package: "devkit")]),
        // CMS SignedData reading and verification, and the profile model (Provisioning).
        .target(name: "FuzzProfile", dependencies: [.product(name: "Provisioning", package: "devkit")]),
        // The XML tokenizers against each other: what the direct one accepts, expat accepts
        // with the same tokens (PlistXMLShim).
        .target(name: "FuzzPlistXMLTokens", dependencies: [.product(name: "PlistXMLShim", package: "devkit")]),
        // The crash-log readers: Apple text, .ips, Swift backtraces, sanitizer reports, address lists.
        .target(name: "FuzzCrashLog", dependencies: [.product(name: "CrashReport", package: "devkit")]),
        // heapdiff's reading, replay and reports of a heap recording (HeapAnalysis).
        .target(name: "FuzzHeapRecording", dependencies: [.product(name: "HeapAnalysis", package: "devkit")]),
    ] + targets.map { name in
        .target(
            name: name,
            dependencies: ["FuzzCommon", .product(name: "PropertyList", package: "devkit")]
        )
    }
)
