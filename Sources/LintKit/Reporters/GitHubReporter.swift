/// GitHub Actions workflow commands, one per finding, so findings show as annotations on the
/// pull request: `::error file=Info.plist,line=9,col=2,title=plist.syntax::message`.
/// Notes become `::notice`. Property and message values are escaped as the Actions toolkit
/// does (`%`, CR, LF; in properties also `:` and `,`).
public struct GitHubReporter: Reporter {
    public static let identifier = "github"

    public init() {}

    public func render(_ findings: [Finding]) -> String {
        findings.map { finding in
            let command = switch finding.severity {
            case .error: "error"
            case .warning: "warning"
            case .note: "notice"
            }
            var properties = ["file=\(Self.escapeProperty(finding.file))"]
            switch finding.location {
            case .text(let line, let column)?: properties += ["line=\(line)", "col=\(column)"]
            case .line(let line)?: properties.append("line=\(line)")
            case .byteOffset?, nil: break
            }
            properties.append("title=\(Self.escapeProperty(finding.ruleID))")
            var message = finding.message
            if case .byteOffset? = finding.location, let position = finding.location { message = "\(position): " + message }
            return "::\(command) \(properties.joined(separator: ","))::\(Self.escapeData(message + " [\(finding.ruleID)]"))\n"
        }.joined()
    }

    static func escapeData(_ text: String) -> String {
        var out = ""
        for c in text.unicodeScalars {
            switch c {
            case "%": out += "%25"
            case "\r": out += "%0D"
            case "\n": out += "%0A"
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }

    static func escapeProperty(_ text: String) -> String {
        var out = ""
        for c in escapeData(text).unicodeScalars {
            switch c {
            case ":": out += "%3A"
            case ",": out += "%2C"
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }
}
