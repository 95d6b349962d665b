@testable import BundleChecks
import Foundation
import Testing

/// The bundles found in an iOS app laid out on disk: the app, its frameworks and loose
/// dylibs, its extensions, and the frameworks and dylibs an extension embeds itself.
@Suite struct BundleInventoryTests {
    static func write(_ path: String, _ text: String) throws {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }

    static func info(executable: String) -> String {
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\"><dict><key>CFBundleExecutable</key><string>\(executable)</string></dict></plist>\n"
    }

    @Test func extensionsEmbeddedFrameworksAreBundlesToo() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("inventory-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        let app = root + "/Demo.app"
        try Self.write(app + "/Info.plist", Self.info(executable: "Demo"))
        try Self.write(app + "/Demo", "binary")
        try Self.write(app + "/Frameworks/Shared.framework/Info.plist", Self.info(executable: "Shared"))
        try Self.write(app + "/Frameworks/Shared.framework/Shared", "binary")
        try Self.write(app + "/Frameworks/libswiftCore.dylib", "binary")
        let appex = app + "/PlugIns/Widget.appex"
        try Self.write(appex + "/Info.plist", Self.info(executable: "Widget"))
        try Self.write(appex + "/Widget", "binary")
        try Self.write(appex + "/Frameworks/WidgetKitHelpers.framework/Info.plist", Self.info(executable: "WidgetKitHelpers"))
        try Self.write(appex + "/Frameworks/WidgetKitHelpers.framework/WidgetKitHelpers", "binary")
        try Self.write(appex + "/Frameworks/libHelper.dylib", "binary")

        let (bundles, errors) = BundleInventory.bundles(in: app)
        #expect(errors.isEmpty)
        let relative = bundles.map { bundle in
            "\(bundle.kind.rawValue) \(bundle.path.dropFirst(root.count + 1)): " + bundle.binaries.map { String($0.dropFirst(root.count + 1)) }.joined(separator: ", ")
        }
        #expect(relative == [
            "app Demo.app: Demo.app/Demo, Demo.app/Frameworks/libswiftCore.dylib",
            "framework Demo.app/Frameworks/Shared.framework: Demo.app/Frameworks/Shared.framework/Shared",
            "extension Demo.app/PlugIns/Widget.appex: Demo.app/PlugIns/Widget.appex/Widget, Demo.app/PlugIns/Widget.appex/Frameworks/libHelper.dylib",
            "framework Demo.app/PlugIns/Widget.appex/Frameworks/WidgetKitHelpers.framework: Demo.app/PlugIns/Widget.appex/Frameworks/WidgetKitHelpers.framework/WidgetKitHelpers",
        ])
    }
}
