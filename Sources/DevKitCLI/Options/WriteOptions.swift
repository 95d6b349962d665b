import ArgumentParser

/// Flags shared by every command that rewrites a file in place.
struct WriteOptions: ParsableArguments {
    @Flag(name: .long, help: "Keep the file's previous contents as FILE~ (beside a symlink's target).")
    var backup = false

    @Flag(name: .long, help: "Replace the file even when it is read-only or owned by another user (who would lose it to you).")
    var force = false
}
