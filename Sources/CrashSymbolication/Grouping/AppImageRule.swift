import CrashReport

/// Which images of a report are the app's own, whose frames make a crash's signature, and
/// which the system's (their frames are the same for every crash that passes through them).
/// A rule of thumb, since logs do not say: an image at a system path (`/usr/lib/`, `/System/`,
/// a simulator's `RuntimeRoot`, `/lib/`), a `lib….dylib` or `lib….so` library (MetricKit gives
/// names only), `dyld`, one of Apple's frameworks most often seen in crashed threads by
/// name, or one whose symbols were found in a DeviceSupport `Symbols` tree is the system's;
/// every other image, the app's.
public enum AppImageRule {
    static let systemPrefixes = ["/usr/lib/", "/System/", "/lib/", "/lib64/", "/usr/lib64/", "/usr/libexec/", "/Library/Apple/",
                                 "/Developer/", "/private/preboot/Cryptexes/"]
    /// Frameworks whose names MetricKit gives without a path.
    static let systemFrameworks: Set<String> = [
        "CoreFoundation", "Foundation", "UIKitCore", "UIKit", "SwiftUI", "SwiftUICore", "AppKit", "CoreData", "QuartzCore",
        "GraphicsServices", "FrontBoardServices", "BaseBoard", "CFNetwork", "Combine", "WebKit", "JavaScriptCore", "Security",
        "CoreGraphics", "AVFoundation", "MapKit", "dyld", "dyld_sim",
    ]

    /// Whether `image` is the app's; `symbolsPath` is where its symbols were found, if they were.
    public static func isApp(_ image: CrashBinaryImage, symbolsPath: String?) -> Bool {
        if let path = image.path, !path.isEmpty {
            if systemPrefixes.contains(where: { path.hasPrefix($0) }) || contains(path, "/RuntimeRoot/") { return false }
        }
        let name = image.name
        if systemFrameworks.contains(name) { return false }
        if name.hasPrefix("lib"), name.hasSuffix(".dylib") || name.hasSuffix(".so") || contains(name, ".so.") { return false }
        if name.hasPrefix("ld-linux") { return false }
        if let symbolsPath, contains(symbolsPath, "/Symbols/System/") || contains(symbolsPath, "/Symbols/usr/") { return false }
        return true
    }

    /// Whether `text` holds `part`, compared as bytes: String's `contains` (the string-processing
    /// library's searcher) was a twentieth of grouping 10,000 logs, called for every frame.
    static func contains(_ text: String, _ part: StaticString) -> Bool {
        let needle = UnsafeBufferPointer(start: part.utf8Start, count: part.utf8CodeUnitCount)
        var text = text
        return text.withUTF8 { haystack in
            guard needle.count <= haystack.count else { return false }
            return (0...(haystack.count - needle.count)).contains { start in
                needle.indices.allSatisfy { haystack[start + $0] == needle[$0] }
            }
        }
    }
}
