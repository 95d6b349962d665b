/// One diagnostic of a MetricKit payload: its kind (`crash`, `hang`, …), its place in the
/// payload's array (nil for a lone diagnostic), and its JSON object.
struct MetricKitDiagnostic {
    var label: String
    var position: Int?
    var fields: OrderedDictionaryView
}
