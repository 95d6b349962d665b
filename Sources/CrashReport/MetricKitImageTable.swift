/// A MetricKit report's images, made from its frames (MetricKit lists no images): one per
/// `binaryUUID` (per name when a frame gives no UUID), in order of first use, so the
/// symbolicator finds each by UUID as it does `.ips` images.
struct MetricKitImageTable {
    var images: [CrashBinaryImage] = []
    private var byKey: [String: Int] = [:]
    /// Images whose frames disagree on the load address, warned about once.
    var warnedBases: Set<Int> = []

    mutating func index(uuid: String?, name: String?) -> Int {
        let identifier = uuid.map(compactIdentifier)
        let key = identifier ?? "name:\(name ?? "")"
        if let known = byKey[key] { return known }
        var image = CrashBinaryImage(name: name ?? identifier ?? "???")
        image.uuid = identifier
        images.append(image)
        byKey[key] = images.count - 1
        return images.count - 1
    }
}
