import BinaryReading
import CrashReport

/// A module libdwfl found in the core (`dwfl_getmodules` + `dwfl_module_info`).
struct CoreModule {
    /// The module's name: the path the core recorded (`NT_FILE` / link_map), or `[vdso: N]`.
    var name: String
    /// The ELF file libdwfl opened for it (`mainfile`), nil when none was found.
    var mainFile: String?
    /// Whether `mainFile` is a readable file now (libdwfl names the core's record of the file
    /// even when it built the module from the core's memory because the file is gone).
    var mainFileExists: Bool
    /// `dwfl_module_build_id`, empty when the core holds none.
    var buildID: [UInt8]
    var start: UInt64
    var end: UInt64
}

extension CoreModule {
    /// The module as a binary image: base name as the name, the file found (or the path the
    /// core recorded) as the path, the build-id in lower-case hex.
    var binaryImage: CrashBinaryImage {
        let recordedPath = name.hasPrefix("/") ? name : nil
        let baseName = recordedPath.flatMap { $0.split(separator: "/").last.map(String.init) } ?? name
        var image = CrashBinaryImage(name: baseName)
        image.path = mainFile ?? recordedPath
        image.uuid = buildID.isEmpty ? nil : hexString(buildID)
        image.loadAddress = start
        // libdwfl's `end` is exclusive; the model's is the last address.
        image.endAddress = end > start ? end - 1 : start
        return image
    }
}
