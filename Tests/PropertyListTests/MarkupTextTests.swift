import PropertyList
import Testing

/// The one escaper for HTML, XML and SVG text (heap reports, the OTA install page).
struct MarkupTextTests {
    @Test func markupCharactersAndControlsAreEscaped() {
        #expect(MarkupText.escape("a<b>&\"'\u{1}\tz") == "a&lt;b&gt;&amp;&quot;&#39;\u{FFFD}\tz")
        #expect(MarkupText.escape("line\nnext\u{85}") == "line\nnext\u{FFFD}")
    }

    @Test func otherTextIsUnchanged() {
        for text in ["", "MyApp 1.0 (42)", "com.example.app", "Café é\u{301} 日本 🚀", "https://x.test/a?b=c"] {
            #expect(MarkupText.escape(text) == text)
        }
    }
}
