import Foundation
import RequestMocker
import Testing

/// JSON Merge Patch (RFC 7396), as a `PATCH` merges into a stored item: the RFC's own examples.
@Suite("Merging a patch into a stored item", .timeLimit(.minutes(3)))
struct ResourceResponderTests {
    @Test(arguments: [
        (#"{"a":"b"}"#, #"{"a":"c"}"#, #"{"a":"c"}"#),
        (#"{"a":"b"}"#, #"{"b":"c"}"#, #"{"a":"b","b":"c"}"#),
        (#"{"a":"b"}"#, #"{"a":null}"#, #"{}"#),
        (#"{"a":"b","b":"c"}"#, #"{"a":null}"#, #"{"b":"c"}"#),
        (#"{"a":["b"]}"#, #"{"a":"c"}"#, #"{"a":"c"}"#),
        (#"{"a":"c"}"#, #"{"a":["b"]}"#, #"{"a":["b"]}"#),
        (#"{"a":{"b":"c"}}"#, #"{"a":{"b":"d","c":null}}"#, #"{"a":{"b":"d"}}"#),
        (#"{"a":[{"b":"c"}]}"#, #"{"a":[1]}"#, #"{"a":[1]}"#),
        (#"["a","b"]"#, #"["c","d"]"#, #"["c","d"]"#),
        (#"{"a":"b"}"#, #"["c"]"#, #"["c"]"#),
        (#"{"a":"foo"}"#, "null", "null"),
        (#"{"a":"foo"}"#, #""bar""#, #""bar""#),
        (#"{"e":null}"#, #"{"a":1}"#, #"{"e":null,"a":1}"#),
        (#"[1,2]"#, #"{"a":"b","c":null}"#, #"{"a":"b"}"#),
        (#"{}"#, #"{"a":{"bb":{"ccc":null}}}"#, #"{"a":{"bb":{}}}"#),
    ])
    func rfc7396(target: String, patch: String, result: String) throws {
        let merged = ResourceResponder.merge(
            try DocumentNode.parseJSON(Array(patch.utf8)), into: try DocumentNode.parseJSON(Array(target.utf8)))
        #expect(String(decoding: merged.jsonBytes, as: UTF8.self) == result)
    }
}
