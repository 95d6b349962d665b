/// What an option group's direct reader did with an option name (`DirectlyParsed`).
enum DirectOptionOutcome {
    /// The option is the group's and its value was read.
    case taken
    /// The option is not the group's.
    case unknown
    /// The option is the group's but its value is missing or does not convert.
    case refused
}
