import Foundation
import RequestMockerTestSupport
import Testing

@testable import RequestMocker

@Suite("Bencode", .timeLimit(.minutes(3)), .hangGuard)
struct BencodeTests {
    func encoded(_ json: String) throws -> String? {
        try Bencode.encode(JSONValue(parsing: Data(json.utf8))).map { String(decoding: $0, as: UTF8.self) }
    }

    // Worked examples of originals.md §1.3.
    @Test("VOK's encodings")
    func vok() throws {
        #expect(
            try encoded(#"{"email":"user@example.com","password":"password"}"#)
                == "d5:email16:user@example.com8:password8:passworde")
        #expect(try encoded(#"{"foo":"baz"}"#) == "d3:foo3:baze")
        #expect(try encoded(#"{"b":[1,2.7,true],"a":"x y/z"}"#) == "d1:a5:x y/z1:bli1ei2ei1eee")
        #expect(try encoded(#"{"a":null}"#) == nil)
        #expect(try encoded(#"[false, -2.7, "é"]"#) == "li0ei-2e2:\u{e9}e")
    }

    @Test("keys sort by UTF-8 bytes, a shorter prefix first; key order and spacing don't matter")
    func ordering() throws {
        #expect(try encoded(#"{"ab": 1, "a": 2, "B": 3, "é": 4}"#) == "d1:Bi3e1:ai2e2:abi1e2:\u{e9}i4ee")
        #expect(try encoded(#"{ "b" : 1 , "a" : 2 }"#) == encoded(#"{"a":2,"b":1}"#))
    }

    @Test("a number outside Int's range can't be encoded")
    func outOfRange() throws {
        #expect(try encoded("1e300") == nil)
    }

    @Test("query-allowed percent encoding keeps @ : / ? and escapes the rest")
    func percentEncoding() {
        #expect("d1:a5:x y/z".queryAllowedPercentEncoded == "d1:a5:x%20y/z")
        #expect(
            "user@example.com?a=1&b=[2]#x é".queryAllowedPercentEncoded
                == "user@example.com?a=1&b=%5B2%5D%23x%20%C3%A9"
        )
    }
}
