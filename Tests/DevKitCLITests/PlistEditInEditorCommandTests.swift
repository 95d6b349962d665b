import Foundation
import Testing

/// `devkit plist edit` end to end, with EDITOR set to a small shell script.
@Suite struct PlistEditInEditorCommandTests {
    static let xml = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <dict>
        \t<!-- keep me -->
        \t<key>Version</key>
        \t<string>1.0</string>
        </dict>
        </plist>

        """

    /// A directory with Info.plist and an editor script with `body` ($1 is the temp file).
    static func setUp(_ contents: Data, script body: String) throws -> (file: URL, editor: String) {
        let dir = try CLI.temporaryDirectory()
        let file = dir.appendingPathComponent("Info.plist")
        try contents.write(to: file)
        let script = dir.appendingPathComponent("editor.sh")
        try "#!/bin/sh\n\(body)\n".write(to: script, atomically: true, encoding: .utf8)
        // Run through sh rather than exec'd: a test running in parallel may fork while this
        // file is still open for writing, and exec would then fail with ETXTBSY.
        return (file, "/bin/sh \"\(script.path)\"")
    }

    static func env(_ editor: String, _ file: URL) -> [String: String] {
        ["EDITOR": editor, "VISUAL": "", "TARGET": file.path]
    }

    @Test func sedEditKeepsXMLAndComments() throws {
        let (file, editor) = try Self.setUp(Data(Self.xml.utf8), script: "sed -i 's|<string>1.0</string>|<string>2.0</string>|' \"$1\"")
        let result = try CLI.run(["plist", "edit", file.path], environment: Self.env(editor, file))
        #expect(result.status == 0, "\(result.stderr)")
        let after = try String(contentsOf: file, encoding: .utf8)
        #expect(after == Self.xml.replacingOccurrences(of: "<string>1.0</string>", with: "<string>2.0</string>"))
    }

    @Test func stringsFileKeepsItsComments() throws {
        let strings = "/* Shown on the button */\n\"ok\" = \"OK\";\n"
        let (file, editor) = try Self.setUp(Data(strings.utf8), script: "sed -i 's|\"OK\";|\"Okay\";|' \"$1\"")
        let result = try CLI.run(["plist", "edit", file.path], environment: Self.env(editor, file))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try String(contentsOf: file, encoding: .utf8) == strings.replacingOccurrences(of: "\"OK\";", with: "\"Okay\";"))
    }

    @Test func binaryStaysBinary() throws {
        let (file, editor) = try Self.setUp(Data(Self.xml.utf8), script: "sed -i 's|<string>1.0</string>|<string>3.0</string>|' \"$1\"")
        #expect(try CLI.run(["plist", "convert", file.path, "--to", "binary", "--in-place"]).status == 0)
        let result = try CLI.run(["plist", "edit", file.path], environment: Self.env(editor, file))
        #expect(result.status == 0, "\(result.stderr)")
        let bytes = try Data(contentsOf: file)
        #expect(bytes.starts(with: Data("bplist00".utf8)))
        let value = try CLI.run(["plist", "get", file.path, "Version"])
        #expect(value.stdout.contains("3.0"), "\(value.stdout) \(value.stderr)")
    }

    @Test func invalidXMLAbortsAndKeepsEdits() throws {
        let (file, editor) = try Self.setUp(Data(Self.xml.utf8), script: "printf '<plist>\\n<dict>\\n<key>A</key>\\n' > \"$1\"")
        let result = try CLI.run(["plist", "edit", file.path], environment: Self.env(editor, file))
        #expect(result.status == 2)
        #expect(try Data(contentsOf: file) == Data(Self.xml.utf8))
        #expect(result.stderr.contains("devkit-edit-"), "\(result.stderr)")
        #expect(result.stderr.range(of: #"Info\.plist:\d+:\d+: error: "#, options: .regularExpression) != nil, "\(result.stderr)")
        #expect(result.stderr.contains("your edits are in"), "\(result.stderr)")
        let temp = result.stderr.components(separatedBy: "your edits are in ").last?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        #expect(try String(contentsOfFile: temp, encoding: .utf8).hasPrefix("<plist>"))
    }

    @Test func unchangedLeavesFileAndDate() throws {
        let (file, editor) = try Self.setUp(Data(Self.xml.utf8), script: "true")
        let past = Date(timeIntervalSince1970: 1_000_000_000)
        try FileManager.default.setAttributes([.modificationDate: past], ofItemAtPath: file.path)
        let result = try CLI.run(["plist", "edit", file.path], environment: Self.env(editor, file))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.isEmpty && result.stderr.isEmpty)
        let date = try FileManager.default.attributesOfItem(atPath: file.path)[.modificationDate] as? Date
        #expect(date == past)
    }

    @Test func concurrentChangeIsRefused() throws {
        let body = """
            sed -i 's|<string>1.0</string>|<string>2.0</string>|' "$1"
            printf 'concurrent' > "$TARGET"
            """
        let (file, editor) = try Self.setUp(Data(Self.xml.utf8), script: body)
        let result = try CLI.run(["plist", "edit", file.path], environment: Self.env(editor, file))
        #expect(result.status == 2)
        #expect(try String(contentsOf: file, encoding: .utf8) == "concurrent")
        #expect(result.stderr.contains("your edits are in"), "\(result.stderr)")
    }

    @Test func editorFailureAborts() throws {
        let (file, editor) = try Self.setUp(Data(Self.xml.utf8), script: "sed -i 's|1.0|2.0|' \"$1\"; exit 3")
        let result = try CLI.run(["plist", "edit", file.path], environment: Self.env(editor, file))
        #expect(result.status == 2)
        #expect(try Data(contentsOf: file) == Data(Self.xml.utf8))
    }

    /// The re-edit prompt in a real terminal: devkit runs in a tmux session; the editor first
    /// breaks the XML, devkit shows the error and asks, the test answers "y" with send-keys,
    /// the editor then fixes it and the file is written. Skipped (with a notice) only when tmux
    /// is missing or cannot start a server; Scripts/test installs tmux and makes sure it can.
    @Test func reeditPromptAnsweredInTmux() throws {
        let tmuxPath = "/usr/bin/tmux"
        guard FileManager.default.isExecutableFile(atPath: tmuxPath) else {
            print("skipped: tmux is not installed; the terminal re-edit test needs it")
            return
        }
        let socket = "devkit-test-\(getpid())"
        /// Runs tmux with posix_spawn + waitpid. Not Foundation's Process: the tmux server that
        /// new-session forks inherits Process's exit-watching descriptor, so waitUntilExit
        /// would wait for the server, not the client.
        @discardableResult
        func tmux(_ arguments: [String]) throws -> (status: Int32, output: String) {
            let outputPath = NSTemporaryDirectory() + "devkit-tmux-\(UUID().uuidString).txt"
            defer { unlink(outputPath) }
            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            posix_spawn_file_actions_adddup2(&actions, 1, 2)
            let argv = ([tmuxPath, "-L", socket] + arguments).map { strdup($0) } + [nil]
            defer { argv.forEach { free($0) } }
            var pid: pid_t = 0
            let spawned = posix_spawn(&pid, tmuxPath, &actions, nil, argv, environ)
            guard spawned == 0 else { return (-1, String(cString: strerror(spawned))) }
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0, errno == EINTR {}
            let output = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
            return ((status >> 8) & 0xFF, output)
        }
        let body = """
            if [ -f "$TARGET.count" ]; then
              sed -i 's|<dict>BROKEN<|<dict>|; s|<string>1.0</string>|<string>4.0</string>|' "$1"
            else
              touch "$TARGET.count"; sed -i 's|<dict>|<dict>BROKEN<|' "$1"
            fi
            """
        let (file, editor) = try Self.setUp(Data(Self.xml.utf8), script: body)
        let statusFile = file.path + ".status"
        let command = "EDITOR='\(editor)' VISUAL= TARGET='\(file.path)' '\(CLI.binary.path)' plist edit '\(file.path)'; echo EXIT=$? > '\(statusFile)'; sleep 60"
        let started = try tmux(["new-session", "-d", "-s", "edit", "-x", "120", "-y", "30", command])
        guard started.status == 0 else {
            print("skipped: tmux cannot start a server here: \(started.output)")
            return
        }
        defer { _ = try? tmux(["kill-server"]) }
        var screen = ""
        for _ in 0..<100 where !screen.contains("Re-edit? [Y/n]") {
            usleep(100_000)
            screen = try tmux(["capture-pane", "-p", "-t", "edit"]).output
        }
        #expect(screen.contains("Re-edit? [Y/n]"), "\(screen)")
        #expect(screen.contains("error:"), "the parse error is shown before the prompt: \(screen)")
        try tmux(["send-keys", "-t", "edit", "y", "Enter"])
        var status = ""
        for _ in 0..<100 where status.isEmpty {
            usleep(100_000)
            status = (try? String(contentsOfFile: statusFile, encoding: .utf8)) ?? ""
        }
        let finalScreen = try tmux(["capture-pane", "-p", "-t", "edit"]).output
        #expect(status == "EXIT=0\n", "\(finalScreen)")
        let after = try String(contentsOf: file, encoding: .utf8)
        #expect(after == Self.xml.replacingOccurrences(of: "<string>1.0</string>", with: "<string>4.0</string>"))
    }
}
