import DevKitTestSupport
import Testing
@testable import PlistTools
import PropertyList
import PropertyListTestSupport

/// Lossless OpenStep and `.strings` editing: comments, quoting and layout survive.
@Suite struct OpenStepDocumentTests {
    static let strings = Array("""
        /* Title of the main window */
        "window.title" = "My App";

        // Buttons
        "button.ok" = "OK"; // short
        "button.cancel" = "Cancel";
        "shortcut";

        """.utf8)

    static let openStep = Array("""
        {
            // settings
            name = demo;
            list = (a, b);
            tall = (
                one,
                two,
            );
            sub = {};
        }

        """.utf8)

    static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    @Test func stringsFileEditsKeepComments() throws {
        let bytes = try PlistEditor.apply([
            .replace(KeyPath(["button.ok"]), .string("Okay")),
            .insert(KeyPath(["new.key"]), .string("Hello \"you\"")),
            .renameKey(KeyPath(["window.title"]), to: "window.heading"),
            .delete(KeyPath(["button.cancel"])),
            .replace(KeyPath(["shortcut"]), .string("Shortcut")),
        ], to: Self.strings)
        #expect(Self.text(bytes) == """
            /* Title of the main window */
            "window.heading" = "My App";

            // Buttons
            "button.ok" = "Okay"; // short
            "shortcut" = "Shortcut";
            "new.key" = "Hello \\"you\\"";

            """)
    }

    @Test func openStepEditsFollowTheFilesLayout() throws {
        let bytes = try PlistEditor.apply([
            .insert(KeyPath(["list", "2"]), .string("c")),
            .insert(KeyPath(["tall", "1"]), .string("mid")),
            .insert(KeyPath(["tall", "3"]), .string("three")),
            .insert(KeyPath(["sub", "k"]), .string("v")),
            .delete(KeyPath(["list", "0"])),
            .replace(KeyPath(["name"]), .dictionary(["x": .array([.string("1")])])),
        ], to: Self.openStep)
        #expect(Self.text(bytes) == """
            {
                // settings
                name = {
                    x = (
                        "1"
                    );
                };
                list = (b, c);
                tall = (
                    one,
                    mid,
                    two,
                    three,
                );
                sub = {
                    k = v;
                };
            }

            """)
    }

    @Test func deletingTheLastElementTakesThePreviousComma() throws {
        let bytes = try PlistEditor.apply([.delete(KeyPath(["list", "1"]))], to: Self.openStep)
        #expect(Self.text(bytes).contains("list = (a);"))
        let empty = try PlistEditor.apply([.delete(KeyPath(["list", "0"]))], to: bytes)
        #expect(Self.text(empty).contains("list = ();"))
    }

    @Test func addThenDeleteGivesBackTheBytes() throws {
        for original in [Self.strings, Self.openStep] {
            let added = try PlistEditor.apply([.insert(KeyPath(["added"]), .string("x"))], to: original)
            #expect(try PlistEditor.apply([.delete(KeyPath(["added"]))], to: added) == original)
        }
    }

    @Test func corpusOpenStepFilesAddThenDelete() throws {
        guard let files = Corpus.files("plist/valid") else { return }
        var checked = 0
        for url in files where url.pathExtension == "ostep" || url.pathExtension == "strings" {
            let bytes = try Corpus.bytes(url)
            guard case .dictionary(let dict)? = try? PropertyListCoding.read(bytes).value, !dict.isEmpty,
                  (try? OpenStepPlistDocument(bytes: bytes)) != nil else { continue }
            let path = KeyPath(["devkit-test-added"])
            let added = try PlistEditor.apply([.insert(path, .string("added value"))], to: bytes)
            #expect(try PropertyListCoding.read(added).value.value(at: path) == .string("added value"), "\(url.lastPathComponent)")
            #expect(try PlistEditor.apply([.delete(path)], to: added) == bytes, "\(url.lastPathComponent)")
            checked += 1
        }
        #expect(checked > 0)
    }

    /// A `.strings` file of comments only (as Xcode creates one, or as deleting its last entry
    /// leaves it) takes a new entry after them, quoted as `.strings` entries are.
    @Test(arguments: ["/* Localizable.strings */\n", "/* Title */\n\n// Buttons", "  \n"])
    func commentOnlyStringsFileTakesAnEntry(text: String) throws {
        let bytes = Array(text.utf8)
        let added = try PlistEditor.apply([.insert(KeyPath(["greeting"]), .string("Hello"))], to: bytes)
        let separator = text.hasSuffix("\n") ? "" : "\n"
        #expect(String(decoding: added, as: UTF8.self) == text + separator + "\"greeting\" = \"Hello\";\n")
        #expect(try PropertyListCoding.read(added).value == .dictionary(["greeting": .string("Hello")]))
        // And back: deleting it leaves the comments, which take an entry again.
        let deleted = try PlistEditor.apply([.delete(KeyPath(["greeting"]))], to: added)
        #expect(try PropertyListCoding.read(deleted).value == .dictionary([:]))
        let again = try PlistEditor.apply([.insert(KeyPath(["bye"]), .string("Bye"))], to: deleted)
        #expect(try PropertyListCoding.read(again).value == .dictionary(["bye": .string("Bye")]))
    }

    /// Random edit sequences: the lossless OpenStep document and the value model agree.
    @Test(arguments: 0..<40) func openStepEditsAgreeWithValueEdits(seed: UInt64) throws {
        var generator = ValueGenerator(rng: SplitMix64(seed: seed), capabilities: .openStep)
        for original in [Self.strings, Self.openStep] {
            try generator.expectEditsAgreeWithValueEdits(of: original, seed: seed, detail: Self.text)
        }
    }
}
