import CrashReport

/// Address -> module, by binary search over the modules' start addresses (libdwfl reports
/// modules that do not overlap).
struct ImageLookup {
    private let starts: [UInt64]
    private let ends: [UInt64]

    /// `modules` sorted by start address.
    init(_ modules: [CoreModule]) {
        starts = modules.map(\.start)
        ends = modules.map(\.end)
    }

    /// The index of the module holding `address`, nil when none does.
    func index(of address: UInt64) -> Int? {
        var low = 0
        var high = starts.count
        while low < high {
            let middle = (low + high) / 2
            if starts[middle] <= address { low = middle + 1 } else { high = middle }
        }
        guard low > 0, address < ends[low - 1] else { return nil }
        return low - 1
    }

    /// The model's frame for an unwound PC. A return address is looked up at `pc - 1`, the
    /// call instruction, because a call that ends a function returns just past its module's
    /// or function's end (as eu-stack and lldb do).
    func frame(index: Int, record: CoreFrameRecord, names images: [CrashBinaryImage]) -> CrashFrame {
        var frame = CrashFrame(index: index)
        frame.address = record.pc
        frame.isReturnAddress = !record.isActivation
        let lookup = record.isActivation || record.pc == 0 ? record.pc : record.pc - 1
        if let module = self.index(of: lookup), module < images.count {
            frame.imageName = images[module].name
            frame.imageOffset = record.pc - starts[module]
        }
        return frame
    }
}
