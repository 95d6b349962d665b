import ArgumentParser

/// `devkit plist …`: property lists in XML, binary, OpenStep and JSON.
struct Plist: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plist",
        abstract: "Print, convert, query and check property lists (XML, binary, OpenStep, JSON).",
        discussion: """
            Formats are detected from the content; use --input-format to override. A FILE of - \
            reads standard input.
            """,
        subcommands: [PlistPrint.self, PlistConvert.self, PlistGet.self, PlistLint.self, PlistDiff.self, PlistTextconv.self, PlistFmt.self, PlistSet.self, PlistDelete.self, PlistInsert.self, PlistRename.self, PlistMerge.self, PlistBuddy.self, PlistEditInEditor.self]
    )
}
