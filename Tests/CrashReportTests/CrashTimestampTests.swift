import CrashReport
import Testing

/// `CrashTimestamp` against times worked out by hand (and checked with `date -u -d`), in
/// every way the formats write them; what is not a time is nil; the readers keep each
/// format's time and app version.
@Suite struct CrashTimestampTests {
    @Test(arguments: [
        ("2026-11-01 10:00:00.000 -0800", "2026-11-01T18:00:00Z"),  // .crash Date/Time
        ("2014-07-16 00:25:09 +0000", "2014-07-16T00:25:09Z"),
        ("2021-03-08 13:57:06.00 -0800", "2021-03-08T21:57:06Z"),  // .ips header
        ("2026-11-05 12:00:00.00 +0100", "2026-11-05T11:00:00Z"),
        ("2026-11-22T22:11:02.753554Z", "2026-11-22T22:11:02Z"),  // Swift JSON backtrace
        ("2016-12-01T01:02:03+01:00", "2016-12-01T00:02:03Z"),
        ("2026-11-24 00:00:00", "2026-11-24T00:00:00Z"),  // MetricKit, no zone: UTC
        ("2024-02-29 23:59:59 -0130", "2024-03-01T01:29:59Z"),  // leap day, crossing midnight
        ("1970-01-01 00:00:00 +0100", "1969-12-31T23:00:00Z"),
        ("1793318400", "2026-10-30T00:00:00Z"),  // KSCrash seconds
        ("1793318400000", "2026-10-30T00:00:00Z"),  // milliseconds
        ("1793318400000000", "2026-10-30T00:00:00Z"),  // microseconds
        ("2000-03-01 00:00:00 +0000", "2000-03-01T00:00:00Z"),
    ])
    func readsAndPrints(_ text: String, _ iso: String) throws {
        #expect(try #require(CrashTimestamp(text)).iso8601 == iso)
    }

    @Test(arguments: ["", "yesterday", "2026-13-01 00:00:00", "2026-11-01", "2026-11-01 25:00:00", "2026-11-01 10:00:00 +2500",
                      "2026-11-01 10:00:00 PST", "2026/11/01 10:00:00", "-5"])
    func refusesWhatIsNoTime(_ text: String) {
        #expect(CrashTimestamp(text) == nil)
    }

    @Test func ordersByInstantNotText() throws {
        // 10:00 in California is after 12:00 in Paris the same day.
        let california = try #require(CrashTimestamp("2026-11-05 10:00:00 -0800"))
        let paris = try #require(CrashTimestamp("2026-11-05 12:00:00 +0100"))
        #expect(paris < california)
    }

    @Test func readersKeepTimeAndVersion() throws {
        let text = """
            Process:             crashy [1]
            Version:             1.0 (7)
            Date/Time:           2026-11-01 10:00:00.000 -0800
            Exception Type:  EXC_CRASH (SIGABRT)
            """
        let crash = try CrashReportParser.parse(Array(text.utf8)).report
        #expect(crash.appVersion == "1.0 (7)" && crash.timestamp == "2026-11-01 10:00:00.000 -0800")

        let ips = #"""
            {"app_name":"a","timestamp":"2026-11-05 12:00:00.00 +0100","app_version":"1.1","build_version":"8","bug_type":"309"}
            {"procName":"a","exception":{"type":"EXC_CRASH"},"threads":[]}
            """#
        let fromIPS = try CrashReportParser.parse(Array(ips.utf8)).report
        #expect(fromIPS.appVersion == "1.1 (8)" && fromIPS.timestamp == "2026-11-05 12:00:00.00 +0100")

        // Tools write an empty app_version: the body's bundleInfo is used instead.
        let bundle = #"""
            {"app_name":"a","app_version":"","bug_type":"309"}
            {"procName":"a","captureTime":"2026-11-05 12:00:00.0000 +0100","bundleInfo":{"CFBundleShortVersionString":"2.0","CFBundleVersion":"11"},"threads":[]}
            """#
        let fromBundle = try CrashReportParser.parse(Array(bundle.utf8)).report
        #expect(fromBundle.appVersion == "2.0 (11)" && fromBundle.timestamp == "2026-11-05 12:00:00.0000 +0100")

        let metricKit = #"{"timeStampBegin": "2026-11-24 00:00:00", "crashDiagnostics": [{"callStackTree": {"callStacks": []}, "diagnosticMetaData": {"appVersion": "1.2", "appBuildVersion": "9"}}]}"#
        let fromMetricKit = try CrashReportParser.parse(Array(metricKit.utf8)).report
        #expect(fromMetricKit.appVersion == "1.2 (9)" && fromMetricKit.timestamp == "2026-11-24 00:00:00")

        let kscrash = #"{"report": {"timestamp": 1793318400}, "system": {"CFBundleShortVersionString": "1.0", "CFBundleVersion": "7"}, "binary_images": [], "crash": {"threads": []}}"#
        let fromKSCrash = try CrashReportParser.parse(Array(kscrash.utf8)).report
        #expect(fromKSCrash.appVersion == "1.0 (7)" && fromKSCrash.timestamp == "1793318400")
    }

    /// `symbolicate --group` skips what no format's markers show; logs of every format are recognised.
    @Test(arguments: [
        ("{\"hello\": 1}", nil),
        ("# Notes\n\nsome text\n", nil),
        ("0x1000\n0x2000\n", nil),  // an address list names no image
        ("{\"app_name\":\"a\",\"bug_type\":\"309\"}\n{}", CrashReport.Format.ips),
        ("{\"callStackTree\": {}}", .metricKit),
        ("{\"binary_images\": [], \"crash\": {}}", .kscrash),
        ("Incident Identifier: X\n", .appleText),
        ("junk\nException Type:  EXC_CRASH (SIGABRT)\n", .appleText),
        ("*** Program crashed: Bad pointer dereference at 0x4 ***\n", .swiftBacktrace),
    ] as [(String, CrashReport.Format?)])
    func recognisesOnlyCrashLogs(_ text: String, _ format: CrashReport.Format?) {
        #expect(CrashReportParser.recognizedFormat(Array(text.utf8)) == format)
    }
}
