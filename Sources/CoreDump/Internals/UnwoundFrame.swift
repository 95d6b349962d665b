/// One unwound frame (`dwfl_frame_pc`).
struct UnwoundFrame {
    var pc: UInt64
    /// True for frame 0 and signal frames: `pc` is exact. False: `pc` is a return address.
    var isActivation: Bool
}
