import Foundation
import RequestMocker
import RequestMockerOpenAPI
import RequestMockerTestSupport
import Testing

/// JSON Merge Patch (RFC 7396), as a `PATCH` merges into a stored item: the RFC's own examples.
@Suite("Merging a patch into a stored item", .timeLimit(.minutes(3)), .hangGuard)
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

/// JSON Patch (RFC 6902), as a `PATCH` of `application/json-patch+json` applies it: the RFC's
/// examples, and the failures that leave the item as it was.
@Suite("Applying a JSON Patch to a stored item", .timeLimit(.minutes(3)), .hangGuard)
struct JSONPatchTests {
    static func applied(_ patch: String, to document: String) -> String {
        do {
            let result = try JSONPatch.apply(
                try DocumentNode.parseJSON(Array(patch.utf8)), to: try DocumentNode.parseJSON(Array(document.utf8)))
            return String(decoding: result.jsonBytes, as: UTF8.self)
        } catch {
            return "error: \(error)"
        }
    }

    @Test(arguments: [
        (#"{"foo":"bar"}"#, #"[{"op":"add","path":"/baz","value":"qux"}]"#, #"{"foo":"bar","baz":"qux"}"#),
        (#"{"foo":["bar","baz"]}"#, #"[{"op":"add","path":"/foo/1","value":"qux"}]"#, #"{"foo":["bar","qux","baz"]}"#),
        (#"{"baz":"qux","foo":"bar"}"#, #"[{"op":"remove","path":"/baz"}]"#, #"{"foo":"bar"}"#),
        (#"{"foo":["bar","qux","baz"]}"#, #"[{"op":"remove","path":"/foo/1"}]"#, #"{"foo":["bar","baz"]}"#),
        (
            #"{"baz":"qux","foo":"bar"}"#, #"[{"op":"replace","path":"/baz","value":"boo"}]"#,
            #"{"baz":"boo","foo":"bar"}"#
        ),
        (
            #"{"foo":{"bar":"baz","waldo":"fred"},"qux":{"corge":"grault"}}"#,
            #"[{"op":"move","from":"/foo/waldo","path":"/qux/thud"}]"#,
            #"{"foo":{"bar":"baz"},"qux":{"corge":"grault","thud":"fred"}}"#
        ),
        (
            #"{"foo":["all","grass","cows","eat"]}"#, #"[{"op":"move","from":"/foo/1","path":"/foo/3"}]"#,
            #"{"foo":["all","cows","eat","grass"]}"#
        ),
        (
            #"{"baz":"qux","foo":["a",2,"c"]}"#,
            #"[{"op":"test","path":"/baz","value":"qux"},{"op":"test","path":"/foo/1","value":2}]"#,
            #"{"baz":"qux","foo":["a",2,"c"]}"#
        ),
        (
            #"{"baz":"qux"}"#, #"[{"op":"test","path":"/baz","value":"bar"}]"#,
            "error: operation 0: the test of /baz failed"
        ),
        (
            #"{"foo":"bar"}"#, #"[{"op":"add","path":"/child","value":{"grandchild":{}}}]"#,
            #"{"foo":"bar","child":{"grandchild":{}}}"#
        ),
        (
            #"{"foo":["bar"]}"#, #"[{"op":"add","path":"/foo/-","value":["abc","def"]}]"#,
            #"{"foo":["bar",["abc","def"]]}"#
        ),
        (
            #"{"foo":"bar"}"#, #"[{"op":"add","path":"/baz/bat","value":"qux"}]"#,
            "error: operation 0: /baz is not there"
        ),
        (#"{"/":9,"~1":10}"#, #"[{"op":"test","path":"/~01","value":10}]"#, #"{"/":9,"~1":10}"#),
        (#"{"foo":"bar"}"#, #"[{"op":"copy","from":"/foo","path":"/baz"}]"#, #"{"foo":"bar","baz":"bar"}"#),
        (
            #"{"a":{"b":1}}"#, #"[{"op":"move","from":"/a","path":"/a/c"}]"#,
            "error: operation 0: /a can't move into itself"
        ),
        (#"{"a":1}"#, #"[{"op":"remove","path":"/b"}]"#, "error: operation 0: /b is not there to remove"),
        (
            #"{"a":1}"#, #"[{"op":"jump","path":"/a"}]"#,
            #"error: operation 0: "jump" is not an operation; use add, remove, replace, move, copy or test"#
        ),
        (#"{"a":1}"#, #"{"op":"add"}"#, "error: operation 0: a JSON Patch is an array of operations"),
    ])
    func rfc6902(document: String, patch: String, result: String) {
        #expect(Self.applied(patch, to: document) == result)
    }
}
