@testable import CrashSymbolication
import Testing

/// The tokenizer `--format same` uses to find frame objects in MetricKit and KSCrash JSON:
/// strings holding brackets and escaped quotes do not confuse it, member ranges are exact
/// (strings with quotes, containers bracket to bracket), only objects of the named arrays
/// count, and a first element is told from the others.
@Suite struct JSONFrameScannerTests {
    static func members(_ json: String, keys: Set<String> = ["subFrames", "callStackRootFrames"]) -> [[String: String]] {
        let bytes = Array(json.utf8)
        return JSONFrameScanner.frameObjects(in: bytes, arrayKeys: keys).map { object in
            #expect(bytes[object.open] == UInt8(ascii: "{"))
            return object.members.mapValues { String(decoding: bytes[$0], as: UTF8.self) }
        }
    }

    @Test func stringsWithBracketsAndEscapes() {
        let json = #"{"callStackRootFrames": [{"binaryName": "a}b\"[{", "offsetIntoBinaryTextSegment": 12, "subFrames": [{"x": [1, {"y": "]"}], "k\"ey": true}]}], "other": [{"z": 1}]}"#
        let found = Self.members(json)
        #expect(found.count == 2)
        #expect(found[0]["binaryName"] == #""a}b\"[{""#)
        #expect(found[0]["offsetIntoBinaryTextSegment"] == "12")
        #expect(found[0]["subFrames"] == #"[{"x": [1, {"y": "]"}], "k\"ey": true}]"#)
        #expect(found[1]["x"] == #"[1, {"y": "]"}]"#)
        // An escaped key is kept as written; it is never one devkit reads.
        #expect(found[1][#"k\"ey"#] == "true")
        // Objects of arrays under other keys are not frames.
        #expect(found.allSatisfy { $0["z"] == nil })
    }

    @Test func firstElementsAndEmptyObjects() {
        let json = #"{"contents": [{}, {"instruction_addr": 4096}, 7, {"instruction_addr":8192}]}"#
        let objects = JSONFrameScanner.frameObjects(in: Array(json.utf8), arrayKeys: ["contents"])
        #expect(objects.map(\.isFirst) == [true, false, false])
        #expect(objects.map(\.members.count) == [0, 1, 1])
        #expect(objects.map(\.arrayKey) == ["contents", "contents", "contents"])
    }

    @Test func deepNestingIsScannedWithoutRecursion() {
        let depth = 20_000
        let json = #"{"callStackRootFrames": ["# + String(repeating: #"{"subFrames": ["#, count: depth) + String(repeating: "]}", count: depth) + "]}"
        #expect(JSONFrameScanner.frameObjects(in: Array(json.utf8), arrayKeys: ["callStackRootFrames", "subFrames"]).count == depth)
    }

    @Test func quotedEscapesControlCharacters() {
        #expect(JSONFrameRewriter.quoted("a\"b\\c\n\u{1}é") == #""a\"b\\c\n\u0001é""#)
    }
}
