import ArgumentParser
import Provisioning

/// `--format` for commands that describe rather than find.
enum DescribeFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json
}
