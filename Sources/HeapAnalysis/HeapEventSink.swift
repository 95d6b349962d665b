/// Receives events in order from `HeapRecording.replay(into:)`.
protocol HeapEventSink {
    mutating func receive(_ event: HeapEvent)
}
