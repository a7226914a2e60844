import Foundation
import RequestMockerTestSupport
import Testing

@testable import RequestMocker

@Suite("SHA256", .timeLimit(.minutes(3)), .hangGuard)
struct SHA256Tests {
    // FIPS 180-4 / NIST CAVP example vectors.
    @Test(
        "NIST vectors",
        arguments: [
            ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
            ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
            (
                "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
                "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
            ),
            (
                """
                abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnop\
                jklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu
                """,
                "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"
            ),
        ])
    func nist(message: String, digest: String) {
        #expect(SHA256.hex(Array(message.utf8)) == digest)
    }

    @Test("one million a's (NIST long message)")
    func millionA() {
        #expect(
            SHA256.hex(repeatElement(UInt8(ascii: "a"), count: 1_000_000))
                == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test("block-boundary lengths agree with incremental updates", arguments: [55, 56, 63, 64, 65, 119, 120, 128])
    func boundaries(length: Int) {
        let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        var incremental = SHA256()
        incremental.update(bytes.prefix(length / 3))
        incremental.update(bytes.dropFirst(length / 3))
        #expect(
            incremental.finalize()
                == {
                    var whole = SHA256()
                    whole.update(bytes)
                    return whole.finalize()
                }())
    }

    // The hashes VOKMockUrlProtocol's fixture files are named by, which folders written for it
    // keep (the DocC article Migration, "VOKMockUrlProtocol").
    @Test(
        "VOKMockUrlProtocol fixture hashes",
        arguments: [
            ("bar=baz", "f572f8dbb5d18f875512ecb02f6852d29fa1baf9ebd1f241d96afd978e721852"),
            (
                "email=user%40example.com&password=password",
                "169d720631e603967135cfce10d235e94aac22b87500ea09d1be295f5b300dca"
            ),
            (#"{"foo":"baz"}"#, "c450c726579d41e1daa46158c07c1ed4a81dddc5e8dcb96ad729bca95e0e6fac"),
            ("abc=def", "697d1bc6c73a3c6761a85836aa4557d1272f6d251759a885671e94119e8c6f82"),
        ])
    func vok(message: String, digest: String) {
        #expect(SHA256.hex(Array(message.utf8)) == digest)
    }
}
