import ArgumentParser
@main
struct DevKit: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "devkit", abstract: "x")
}
