import Foundation

/// TCP on 127.0.0.1 for tests of network clients: a free port, a listener that never
/// answers (the kernel completes connections up to its backlog; nothing is ever read or
/// written), and a plain HTTP/1.0 GET.
public final class LoopbackSocket {
    /// The port listened on.
    public let port: Int
    private var descriptor: Int32

    /// A socket listening on a free port of 127.0.0.1 that never accepts.
    public init() throws {
        (descriptor, port) = try Self.bound()
        guard listen(descriptor, 16) == 0 else { throw Failure("listen: \(String(cString: strerror(errno)))") }
    }

    deinit { close() }

    /// Stops listening: later connections are refused.
    public func close() {
        if descriptor >= 0 { _ = Glibc.close(descriptor) }
        descriptor = -1
    }

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
        init(_ description: String) { self.description = description }
    }

    /// A port nothing listens on right now (bound to port 0, read back, released).
    public static func freePort() throws -> Int {
        let (descriptor, port) = try bound()
        _ = Glibc.close(descriptor)
        return port
    }

    private static func bound() throws -> (Int32, Int) {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw Failure("socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ok = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0
            }
        }
        guard ok else {
            let reason = String(cString: strerror(errno))
            _ = Glibc.close(descriptor)
            throw Failure("bind: \(reason)")
        }
        return (descriptor, Int(UInt16(bigEndian: address.sin_port)))
    }

    /// The body of `GET path` from 127.0.0.1:`port`, or nil when nothing answers within
    /// `timeout` seconds or the status is not 200.
    public static func get(port: Int, path: String, timeout: Int = 2) -> String? {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return nil }
        defer { _ = Glibc.close(descriptor) }
        var limit = timeval(tv_sec: timeout, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
        guard connected else { return nil }
        let request = Array("GET \(path) HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n".utf8)
        guard send(descriptor, request, request.count, 0) == request.count else { return nil }
        var response: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = recv(descriptor, &buffer, buffer.count, 0)
            if count < 0 { return nil }
            if count == 0 { break }
            response += buffer[..<count]
        }
        let text = String(decoding: response, as: UTF8.self)
        guard text.hasPrefix("HTTP/1.0 200") || text.hasPrefix("HTTP/1.1 200"),
              let end = text.range(of: "\r\n\r\n") else { return nil }
        return String(text[end.upperBound...])
    }
}
