import CLibDW
import CLibDebuginfod
import CLibYAML
import LazyLibraries
import PlistXMLShim
import Testing

/// Each library opens at its first call and its forwarders reach the library's own functions.
/// One call loads the whole table, so every function name listed for the library is checked
/// against the installed library here (a misspelt name fails the load).
@Suite struct LazyLibraryTests {
    @Test func libelfAndLibdwAnswerThroughTheirForwarders() {
        // Four bytes that are not an ELF header: libelf opens them as "no known kind".
        var bytes: [CChar] = [0x61, 0x62, 0x63, 0x64]
        let kind = bytes.withUnsafeMutableBufferPointer { buffer -> Elf_Kind? in
            guard let elf = elf_memory(buffer.baseAddress, buffer.count) else { return nil }
            defer { elf_end(elf) }
            return elf_kind(elf)
        }
        #expect(kind == ELF_K_NONE)
        #expect(lazy_library_is_loaded("libelf.so.1"))
        // Error 1 is DWARF_E_UNKNOWN_ERROR; its text comes from libdw's own table.
        let message = dwarf_errmsg(1).map { String(cString: $0) }
        #expect(message == "unknown error")
        #expect(lazy_library_is_loaded("libdw.so.1"))
    }

    @Test func libyamlParsesThroughItsForwarders() {
        var parser = yaml_parser_t()
        #expect(yaml_parser_initialize(&parser) == 1)
        let text: [UInt8] = Array("a: 1\n".utf8)
        var kinds: [yaml_event_type_t] = []
        text.withUnsafeBufferPointer { bytes in
            yaml_parser_set_input_string(&parser, bytes.baseAddress, bytes.count)
            var event = yaml_event_t()
            while yaml_parser_parse(&parser, &event) == 1 {
                kinds.append(event.type)
                let done = event.type == YAML_STREAM_END_EVENT
                yaml_event_delete(&event)
                if done { break }
            }
        }
        yaml_parser_delete(&parser)
        #expect(kinds.first == YAML_STREAM_START_EVENT)
        #expect(kinds.last == YAML_STREAM_END_EVENT)
        #expect(kinds.count == 8)  // stream, document, mapping, two scalars and their ends
        #expect(lazy_library_is_loaded("libyaml-0.so.2"))
    }

    @Test func expatTokenisesThroughThePlistShim() {
        let parser = px_parser_create()
        defer { px_parser_free(parser) }
        let document = "<plist><true/></plist>"
        #expect(px_parser_feed(parser, document, document.utf8.count, 1) == 0)
        #expect(lazy_library_is_loaded("libexpat.so.1"))
    }

    @Test func libdebuginfodAnswersThroughItsForwarders() {
        // A client without servers: begin, user data round trip and end touch no network.
        guard let client = debuginfod_begin() else {
            Issue.record("debuginfod_begin failed")
            return
        }
        var marker = 42
        withUnsafeMutablePointer(to: &marker) { pointer in
            debuginfod_set_user_data(client, pointer)
            #expect(debuginfod_get_user_data(client) == UnsafeMutableRawPointer(pointer))
        }
        debuginfod_end(client)
        #expect(lazy_library_is_loaded("libdebuginfod.so.1"))
    }

    @Test func aLibraryNeverOpenedIsNotReportedLoaded() {
        #expect(!lazy_library_is_loaded("libdevkit-no-such-library.so.0"))
    }
}
