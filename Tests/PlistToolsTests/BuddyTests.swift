import OrderedCollections
import Testing
@testable import PlistTools
import PropertyList

/// PlistBuddy's command language: each row runs commands on a start value and expects the
/// resulting value or the error message.
@Suite struct BuddyTests {
    static func dict(_ pairs: KeyValuePairs<String, PlistValue>) -> PlistValue {
        .dictionary(OrderedDictionary(uniqueKeysWithValues: pairs.map { ($0.key, $0.value) }))
    }

    static let start = dict(["Name": .string("App"), "Version": .int(1), "List": .array([.string("a")])])

    enum Expected { case value(PlistValue), error(String) }

    static let cases: [([String], Expected)] = [
        (["Set :Name Other"], .value(dict(["Name": .string("Other"), "Version": .int(1), "List": .array([.string("a")])]))),
        (["Set :Version 7"], .value(dict(["Name": .string("App"), "Version": .int(7), "List": .array([.string("a")])]))),
        (["Set :Version seven"], .error("Unrecognized Integer Format")),
        (["Set :Missing 1"], .error("Set: Entry, \":Missing\", Does Not Exist")),
        (["Set :List x"], .error("Set: Cannot Perform Set On Containers")),
        (["Add :List:0 string z"], .value(dict(["Name": .string("App"), "Version": .int(1), "List": .array([.string("z"), .string("a")])]))),
        (["Add :List:1 string z"], .value(dict(["Name": .string("App"), "Version": .int(1), "List": .array([.string("a"), .string("z")])]))),
        (["Add :List:5 string z"], .error("Add: Can't Add Entry, \":List:5\", to Parent")),
        (["Add :Name string x"], .error("Add: \":Name\" Entry Already Exists")),
        (["Add :No:Key string x"], .error("Add: Entry, \":No\", Does Not Exist")),
        (["Add :R real nope"], .error("Unrecognized Real Format")),
        (["Add :T weird"], .error("Unrecognized Type: weird")),
        (["Delete :Name", "Delete :List"], .value(dict(["Version": .int(1)]))),
        (["Delete :X"], .error("Delete: Entry, \":X\", Does Not Exist")),
        (["Copy :Name :Copy"], .value(dict(["Name": .string("App"), "Version": .int(1), "List": .array([.string("a")]), "Copy": .string("App")]))),
        (["Copy :X :Y"], .error("Copy: Entry, \":X\", Does Not Exist")),
        (["Clear"], .value(.dictionary([:]))),
        (["Clear array", "Add :0 bool yes"], .value(.array([.bool(true)]))),
        (["Add :D dict", "Add :D:S string 'two words'"], .value(dict(["Name": .string("App"), "Version": .int(1), "List": .array([.string("a")]), "D": dict(["S": .string("two words")])]))),
        (["Merge other.plist"], .value(dict(["Name": .string("App"), "Version": .int(1), "List": .array([.string("a")]), "New": .bool(true)]))),
        (["Frobnicate :X"], .error("Unrecognized Command: Frobnicate")),
    ]

    @Test(arguments: 0..<cases.count)
    func table(_ index: Int) {
        let (commands, expected) = Self.cases[index]
        var value = Self.start
        var output: [UInt8] = []
        let merged = Self.dict(["Name": .string("Ignored"), "New": .bool(true)])
        do {
            let script = try PlistBuddyScript(parsing: commands)
            try script.apply(to: &value, output: &output) { _ throws(PlistBuddyError) in merged }
            guard case .value(let want) = expected else { Issue.record("expected an error for \(commands)"); return }
            #expect(value == want, "\(commands)")
        } catch {
            guard case .error(let message) = expected else { Issue.record("\(commands): \(error.message)"); return }
            #expect(error.message == message, "\(commands)")
        }
    }

    @Test func printLayout() throws {
        var value = Self.dict(["S": .string("x"), "D": Self.dict(["B": .bool(false), "R": .double(1.5)]), "A": .array([.int(3)])])
        var output: [UInt8] = []
        try PlistBuddyScript(parsing: ["Print"]).apply(to: &value, output: &output)
        #expect(String(decoding: output, as: UTF8.self) == """
            Dict {
                S = x
                D = Dict {
                    B = false
                    R = 1.5
                }
                A = Array {
                    3
                }
            }

            """)
    }

    @Test func dates() {
        let date = PlistDate(year: 2026, month: 11, day: 20, hour: 9, minute: 30, second: 0)!
        #expect(PlistBuddyPrinter.formatDate(date) == "Fri Nov 20 09:30:00 UTC 2026")
        #expect(PlistBuddyPrinter.parseDate("Fri Nov 20 09:30:00 UTC 2026") == date)
        #expect(PlistBuddyPrinter.parseDate("2026-11-20T09:30:00Z") == date)
    }
}
