import ArgumentParser

struct ReportOptions: ParsableArguments {
    @Option(name: .long, help: "How to print findings (text|json).")
    var format: ReportFormat = .text
}
