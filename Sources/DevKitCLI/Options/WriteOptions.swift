import ArgumentParser

/// Flags shared by every command that rewrites a file in place.
struct WriteOptions: ParsableArguments {
    @Flag(name: .long, help: "Keep the file's previous contents as FILE~ (beside a symlink's target).")
    var backup = false
}
