/// The commands read without ArgumentParser when their line is plain (`DirectlyParsed`).
enum DirectParse {
    static let invocations: [any DirectlyParsed.Type] = [
        PlistGetInvocation.self, PlistLintInvocation.self, PlistConvertInvocation.self,
        PlistTextconvInvocation.self, PlistFmtInvocation.self, PlistPrintInvocation.self,
        PlistSetInvocation.self, PlistDeleteInvocation.self, LintInvocation.self, SymbolicateInvocation.self,
        PlistInsertInvocation.self, PlistRenameInvocation.self, PlistMergeInvocation.self, PlistDiffInvocation.self,
        HeapRecordInvocation.self, HeapdiffInvocation.self,
    ]

    /// The invocation `arguments` (argv without the program) hold, read directly and
    /// validated, or nil for ArgumentParser to read.
    static func invocation(_ arguments: [String]) -> (any DirectlyParsed)? {
        for type in invocations where arguments.starts(with: type.commandPath) {
            return invocation(type, arguments.dropFirst(type.commandPath.count))
        }
        return nil
    }

    private static func invocation<Invocation: DirectlyParsed>(_ type: Invocation.Type, _ arguments: ArraySlice<String>) -> Invocation? {
        var reader = DirectArguments(arguments)
        guard let invocation = Invocation.read(&reader), !reader.isUnreadable else { return nil }
        // A line the command refuses is read again by ArgumentParser, which words the error.
        guard (try? invocation.validate()) != nil else { return nil }
        return invocation
    }
}
