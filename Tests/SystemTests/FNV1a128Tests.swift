import System
import Testing

@Suite struct FNV1a128Tests {
    /// Published FNV-1a 128-bit test vectors (the empty string is the offset basis).
    @Test(arguments: [("", "6c62272e07bb014262b821756295c58d"), ("a", "d228cb696f1a8caf78912b704e4a8964"),
                      ("foobar", "343e1662793c64bf6f0d3597ba446f18")])
    func testVectors(_ text: String, _ digest: String) {
        var hash = FNV1a128()
        hash.combine(bytes: text.utf8)
        #expect(hash.hexDigest == digest)
    }

    /// Fields are length-prefixed: "ab" + "c" and "a" + "bc" differ.
    @Test func fieldsDoNotRunIntoEachOther() {
        var one = FNV1a128(), two = FNV1a128()
        one.combine(field: "ab"); one.combine(field: "c")
        two.combine(field: "a"); two.combine(field: "bc")
        #expect(one.hexDigest != two.hexDigest)
    }
}
