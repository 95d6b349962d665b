/// Finds the frame objects of a JSON crash report in its bytes, for rewriting them in place:
/// each object that is an element of an array under one of `arrayKeys` (MetricKit's
/// `callStackRootFrames` and `subFrames`, KSCrash's `contents`), with where it opens and
/// the byte range of each member's value. The report was already read by its reader, so
/// the bytes are valid JSON; the scan only tokenises. Iterative, with its own stack: a
/// MetricKit tree nests thousands of levels.
struct JSONFrameScanner {
    /// One frame object.
    struct FrameObject {
        /// Offset of its `{`.
        var open: Int
        /// The key of the array holding it (`callStackRootFrames`, `subFrames`, `contents`).
        var arrayKey: String
        /// Whether it is its array's first element (a stack's innermost frame, not a return address).
        var isFirst: Bool
        /// Each member's value, from its first byte to just after its last (a string with
        /// its quotes, a container from bracket to bracket).
        var members: [String: Range<Int>] = [:]
    }

    private struct Container {
        var isObject: Bool
        /// For an array: the key it is the value of (nil for array elements and the root).
        var arrayKey: String?
        /// For a frame object: its index in `frames`.
        var frame: Int?
        /// For a container that is a member of a frame object: that frame and the key.
        var member: (frame: Int, key: String, start: Int)?
        /// In an object: the key whose value comes next.
        var key: String?
        /// In an array: the values begun so far.
        var elements = 0
    }

    /// The frame objects in document order.
    static func frameObjects(in bytes: [UInt8], arrayKeys: Set<String>) -> [FrameObject] {
        var frames: [FrameObject] = []
        var stack: [Container] = []
        var index = 0
        let count = bytes.count
        /// In an object, a string before `:` is a key.
        var expectingKey = false

        /// Counts a value starting in the innermost array.
        func valueStarts() {
            if let top = stack.last, !top.isObject { stack[stack.count - 1].elements += 1 }
        }

        func memberOfFrame() -> (frame: Int, key: String)? {
            guard let top = stack.last, top.isObject, let frame = top.frame, let key = top.key else { return nil }
            return (frame, key)
        }

        while index < count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                let isObject = byte == UInt8(ascii: "{")
                var container = Container(isObject: isObject)
                if let member = memberOfFrame() { container.member = (member.frame, member.key, index) }
                if let top = stack.last {
                    if !isObject, top.isObject { container.arrayKey = top.key }
                    if isObject, !top.isObject, let key = top.arrayKey, arrayKeys.contains(key) {
                        container.frame = frames.count
                        frames.append(FrameObject(open: index, arrayKey: key, isFirst: top.elements == 0))
                    }
                }
                valueStarts()
                stack.append(container)
                expectingKey = isObject
                index += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                if let closed = stack.popLast(), let member = closed.member {
                    frames[member.frame].members[member.key] = member.start..<(index + 1)
                }
                expectingKey = false
                index += 1
            case UInt8(ascii: ","):
                expectingKey = stack.last?.isObject ?? false
                index += 1
            case UInt8(ascii: ":"):
                expectingKey = false
                index += 1
            case UInt8(ascii: "\""):
                let start = index
                index += 1
                while index < count, bytes[index] != UInt8(ascii: "\"") {
                    index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1
                }
                index = min(index + 1, count)
                if !expectingKey { valueStarts() }
                if expectingKey, !stack.isEmpty {
                    // Keys of interest have no escapes; an escaped key is kept as written.
                    stack[stack.count - 1].key = String(decoding: bytes[(start + 1)..<max(start + 1, index - 1)], as: UTF8.self)
                } else if let member = memberOfFrame() {
                    frames[member.frame].members[member.key] = start..<index
                }
            case 0x20, 0x09, 0x0A, 0x0D:
                index += 1
            default:
                // A number or literal: up to the next delimiter.
                let start = index
                valueStarts()
                while index < count, !Self.isDelimiter(bytes[index]) { index += 1 }
                if let member = memberOfFrame() { frames[member.frame].members[member.key] = start..<index }
                if index == start { index += 1 }
            }
        }
        return frames
    }

    private static func isDelimiter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), UInt8(ascii: ":"), 0x20, 0x09, 0x0A, 0x0D: true
        default: false
        }
    }
}
