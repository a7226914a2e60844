import Foundation
import RequestMocker
import RequestMockerTestSupport
import Testing

/// `multipart/form-data` bodies read as their parts (RFC 7578, RFC 2046's delimiters): names and
/// file names as browsers quote them, line ends of either kind, and the bounds, with what couldn't
/// be read said rather than swallowed.
@Suite("Reading multipart bodies", .timeLimit(.minutes(3)), .hangGuard)
struct MultipartBodyTests {
    static func parts(_ text: String, boundary: String = "B") -> MultipartBody? {
        MultipartBody(Data(text.utf8), boundary: boundary)
    }

    @Test("fields and files, quoted names with semicolons and escapes, CRLF or LF, with or without the close")
    func partsAsSent() throws {
        let body = try #require(
            Self.parts(
                "preamble\r\n--B\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\nTrip\r\nsecond line\r\n"
                    + "--B\r\nContent-Disposition: form-data; name=\"a;b\"; filename=\"x \\\"1\\\".txt\"\r\n"
                    + "Content-Type: text/plain\r\n\r\nfile\r\n"
                    + "--B\nContent-Disposition: form-data; name=plain\n\nlf\n--B--\r\nepilogue"))
        #expect(
            body.parts == [
                MultipartBody.Part(name: "title", body: Data("Trip\r\nsecond line".utf8)),
                MultipartBody.Part(
                    name: "a;b", fileName: #"x "1".txt"#, contentType: "text/plain", body: Data("file".utf8)),
                MultipartBody.Part(name: "plain", body: Data("lf".utf8)),
            ])
        #expect(body.problem == nil)
        // A body that ends without its close delimiter keeps its last part whole.
        #expect(
            Self.parts("--B\r\nContent-Disposition: form-data; name=a\r\n\r\nend")?.parts
                == [MultipartBody.Part(name: "a", body: Data("end".utf8))])
    }

    @Test("a line that only starts with the delimiter is text, and a boundary's length is RFC 2046's")
    func delimiters() throws {
        let body = try #require(
            Self.parts(
                "--B\r\nContent-Disposition: form-data; name=a\r\n\r\n--Bx is text\r\n--B \t\r\n"
                    + "Content-Disposition: form-data; name=b\r\n\r\n2\r\n--B--"))
        #expect(body.parts.map(\.name) == ["a", "b"])
        #expect(body.parts.first?.body == Data("--Bx is text".utf8))
        #expect(Self.parts("no delimiter at all") == nil)
        #expect(Self.parts("--B", boundary: "") == nil)
        #expect(
            Self.parts("--" + String(repeating: "x", count: 71), boundary: String(repeating: "x", count: 71)) == nil)
        #expect(MultipartBody.boundary(of: #"multipart/form-data; charset=utf-8; boundary="a b""#) == "a b")
        #expect(MultipartBody.boundary(of: "multipart/form-data") == nil)
    }

    @Test("past 1,000 parts, a head past 8 KiB or a part without a name is said, and the rest is read")
    func bounds() throws {
        let many =
            String(
                repeating: "--B\r\nContent-Disposition: form-data; name=ids\r\n\r\n1\r\n", count: 1_005) + "--B--\r\n"
        let read = try #require(Self.parts(many))
        #expect(read.parts.count == 1_000)
        #expect(read.parts.allSatisfy { $0.body == Data("1".utf8) })
        #expect(read.problem == "it has more than 1000 parts; the first 1000 are read")
        let long = try #require(
            Self.parts(
                "--B\r\nContent-Disposition: form-data; name=a\r\nX-Long: \(String(repeating: "a", count: 9_000))"
                    + "\r\n\r\nbody\r\n--B\r\nContent-Disposition: form-data; name=b\r\n\r\nkept\r\n--B--"))
        #expect(long.parts.map(\.name) == ["b"])
        #expect(long.problem == "a part's header fields are longer than 8 KiB")
        #expect(
            Self.parts("--B\r\nContent-Type: text/plain\r\n\r\nx\r\n--B--")?.problem
                == "a part has no name in its Content-Disposition")
    }

    @Test("written and read back, whatever a name holds")
    func roundTrip() throws {
        let parts = [
            MultipartBody.Part(name: "title", body: Data("Trip".utf8)),
            MultipartBody.Part(name: "photo", fileName: "trip.png", contentType: "image/png", body: Data([0, 1, 2])),
        ]
        let written = MultipartBody(parts: parts).encoded(boundary: "XyZ")
        #expect(MultipartBody(written, boundary: "XyZ")?.parts == parts)
        // A name with a quote or a line break can't end the head early.
        let odd = MultipartBody(parts: [MultipartBody.Part(name: "a\"\r\nX-Evil: 1", body: Data("v".utf8))])
        let read = MultipartBody(odd.encoded(boundary: "B"), boundary: "B")
        #expect(read?.parts.map(\.name) == ["a%22%0D%0AX-Evil: 1"])
    }
}
