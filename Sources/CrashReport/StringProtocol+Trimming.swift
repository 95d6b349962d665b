extension StringProtocol {
    var trimmedWhitespace: Substring {
        let view = self[...]
        guard let first = view.firstIndex(where: { !$0.isWhitespace }),
              let last = view.lastIndex(where: { !$0.isWhitespace }) else { return Substring() }
        return Substring(view[first...last])
    }
}
