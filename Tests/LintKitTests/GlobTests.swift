import LintKit
import Testing

/// Config and .gitignore globs: `*`, `**`, character classes, anchoring.
@Suite struct GlobTests {
    @Test func globs() {
        #expect(Glob("*.plist").matches("a/b/c.plist"))
        #expect(!Glob("*.plist").matches("a/b/c.plist.bak"))
        #expect(Glob("a/**/c.plist").matches("a/c.plist"))
        #expect(Glob("a/**/c.plist").matches("a/x/y/c.plist"))
        #expect(!Glob("a/*/c.plist").matches("a/x/y/c.plist"))
        #expect(Glob("Pods").matches("Pods/A/Info.plist"))
        #expect(Glob("[A-C]*.plist").matches("Bx.plist"))
        #expect(!Glob("[!A-C]*.plist").matches("Bx.plist"))
        #expect(Glob("/Info.plist").matches("Info.plist"))
        #expect(!Glob("/Info.plist").matches("x/Info.plist"))
    }
}
