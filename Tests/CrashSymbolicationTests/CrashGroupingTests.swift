import CrashReport
import CrashSymbolication
import Testing

/// Signatures without symbols (an empty catalog): which frames count, in what form, and when
/// two reports are one group; `AppImageRule` on the images logs name.
@Suite struct CrashGroupingTests {
    static func report(_ frames: [String], exception: String = "EXC_BAD_ACCESS (SIGSEGV)", images: [String], date: String? = nil,
                       version: String = "1.0 (1)") throws -> CrashReport {
        var lines = ["Process:             MyApp [1]", "Version:             \(version)", "Exception Type:  \(exception)"]
        if let date { lines.append("Date/Time:           \(date)") }
        lines += ["Triggered by Thread:  0", "", "Thread 0 Crashed:"] + frames.enumerated().map { "\($0.offset)   \($0.element)" }
        lines += ["", "Binary Images:"] + images + [""]
        return try CrashReportParser.parse(Array(lines.joined(separator: "\n").utf8)).report
    }

    static let images = [
        "0x100000000 - 0x100ffffff MyApp arm64  <00112233445566778899aabbccddeeff> /private/var/containers/Bundle/Application/X/MyApp.app/MyApp",
        "0x180000000 - 0x180ffffff libobjc.A.dylib arm64e  <ffeeddccbbaa99887766554433221100> /usr/lib/libobjc.A.dylib",
    ]

    static var symbolicator: CrashSymbolicator { CrashSymbolicator(resolver: ImageResolver(catalog: ImageCatalog(searchPaths: [])), rules: []) }

    /// System frames are passed over; app frames without symbols count by the name the log
    /// wrote, else by image + offset; three of them at most.
    @Test func appFramesByLoggedNameOrOffset() throws {
        let crash = try Self.report([
            "libobjc.A.dylib  0x0000000180000020 objc_msgSend + 32",
            "MyApp            0x0000000100004394 0x100000000 + 17300",
            "MyApp            0x00000001000043a8 -[Model reload] + 12",
            "libobjc.A.dylib  0x0000000180000040 objc_msgSend + 64",
            "MyApp            0x00000001000043c4 0x100000000 + 17348",
            "MyApp            0x00000001000043d0 0x100000000 + 17360",
        ], images: Self.images)
        var grouping = CrashGrouping()
        _ = grouping.add(crash, path: "a.crash", symbolicator: Self.symbolicator)
        let group = try #require(grouping.groups(symbolicator: Self.symbolicator).first)
        #expect(group.signature.description == "EXC_BAD_ACCESS (SIGSEGV) at MyApp +0x4394 < MyApp -[Model reload] < MyApp +0x43c4")
        // The example keeps every frame of the crashed thread, none symbolicated here.
        #expect(group.exampleFrames.count == 6 && group.exampleFrames.allSatisfy { !$0.symbolicated })
    }

    /// Only system frames: the first three make the signature.
    @Test func noAppFrameFallsBackToTheFirstFrames() throws {
        let crash = try Self.report([
            "libobjc.A.dylib  0x0000000180000020 objc_msgSend + 32",
            "libobjc.A.dylib  0x0000000180000040 objc_release + 8",
        ], exception: "EXC_CRASH (SIGABRT)", images: Self.images)
        var grouping = CrashGrouping()
        _ = grouping.add(crash, path: "a.crash", symbolicator: Self.symbolicator)
        #expect(grouping.groups(symbolicator: Self.symbolicator).first?.signature.description
                == "EXC_CRASH (SIGABRT) at libobjc.A.dylib objc_msgSend < libobjc.A.dylib objc_release")
    }

    /// Another load address, date and version is the same crash; another exception is not.
    /// Dates are compared as instants; the latest log is the example.
    @Test func groupsCountDatesAndVersions() throws {
        let frames = ["MyApp  0x0000000100004394 0x100000000 + 17300"]
        let moved = ["0x200000000 - 0x200ffffff MyApp arm64  <00112233445566778899aabbccddeeff> /var/MyApp.app/MyApp"]
        let reports = [
            ("a.crash", try Self.report(frames, images: Self.images, date: "2026-11-05 10:00:00 -0800", version: "1.0 (1)")),
            ("b.crash", try Self.report(["MyApp  0x0000000200004394 0x200000000 + 17300"], images: moved, date: "2026-11-05 12:00:00 +0100", version: "1.1 (2)")),
            ("c.crash", try Self.report(frames, images: Self.images, version: "1.1 (2)")),
            ("d.crash", try Self.report(frames, exception: "EXC_CRASH (SIGABRT)", images: Self.images)),
        ]
        var grouping = CrashGrouping()
        for (path, report) in reports { _ = grouping.add(report, path: path, symbolicator: Self.symbolicator) }
        let groups = grouping.groups(symbolicator: Self.symbolicator)
        #expect(groups.map(\.count) == [3, 1])
        let first = groups[0]
        #expect(first.first?.iso8601 == "2026-11-05T11:00:00Z" && first.last?.iso8601 == "2026-11-05T18:00:00Z")
        #expect(first.undated == 1)
        #expect(first.appVersions == ["1.0 (1)": 1, "1.1 (2)": 2])
        #expect(first.example == "a.crash")  // 10:00 in California is the later instant
    }

    @Test(arguments: [
        ("MyApp", "/private/var/containers/Bundle/Application/X/MyApp.app/MyApp", true),
        ("MyKit", "/private/var/containers/Bundle/Application/X/MyApp.app/Frameworks/MyKit.framework/MyKit", true),
        ("UIKitCore", "/System/Library/PrivateFrameworks/UIKitCore.framework/UIKitCore", false),
        ("libsystem_kernel.dylib", "/usr/lib/system/libsystem_kernel.dylib", false),
        ("UIKitCore", nil, false),  // MetricKit: names only
        ("libswiftCore.dylib", nil, false),
        ("MyApp", nil, true),
        ("libswiftCore.so", "/opt/swift/usr/lib/swift/linux/libswiftCore.so", false),
        ("crashdemo", "/src/CrashDemo/.build/debug/crashdemo", true),
        ("Foundation", "/Library/Developer/CoreSimulator/Volumes/iOS_21A328/Library/Developer/CoreSimulator/Profiles/Runtimes/iOS 17.0.simruntime/Contents/Resources/RuntimeRoot/System/Library/Frameworks/Foundation.framework/Foundation", false),
    ] as [(String, String?, Bool)])
    func appImages(_ name: String, _ path: String?, _ isApp: Bool) {
        var image = CrashBinaryImage(name: name)
        image.path = path
        #expect(AppImageRule.isApp(image, symbolsPath: nil) == isApp)
    }

    @Test func anImageFoundInDeviceSupportIsTheSystems() {
        let image = CrashBinaryImage(name: "SomeFramework")
        #expect(AppImageRule.isApp(image, symbolsPath: "/ds/17.1 (21B80) arm64e/Symbols/System/Library/Frameworks/SomeFramework.framework/SomeFramework") == false)
        #expect(AppImageRule.isApp(image, symbolsPath: "/build/SomeFramework.framework.dSYM/Contents/Resources/DWARF/SomeFramework"))
    }
}
