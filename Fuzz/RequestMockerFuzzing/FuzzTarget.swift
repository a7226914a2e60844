import Foundation
import RequestMocker
import RequestMockerOpenAPI
import RequestMockerServer

/// One parser the fuzzer feeds: its seed inputs, the tokens its mutations insert, and what it
/// does with one input. `run` returns normally for any input; a crash or a hang is a finding.
package struct FuzzTarget: Sendable {
    package let name: String
    package let seeds: [Data]
    package let tokens: [Data]
    package let run: @Sendable (Data) -> Void

    /// Every target, in the order the smoke run takes them.
    package static let all: [FuzzTarget] = [
        json, pattern, httpFile, har, yahttpvcr, script, requestHead, webSocket, openAPI, schemaPattern,
        schemaValidation, yaml, draft, formBody, graphQLSchema, graphQLOperation, graphQLExecution,
    ]

    package static func named(_ name: String) -> FuzzTarget? {
        all.first { $0.name == name }
    }
}

extension FuzzTarget {
    /// JSON text: whatever parses must serialize, and parse again to the same value.
    static let json = FuzzTarget(
        name: "json",
        seeds: [
            #"{"id": 7, "name": "Ada", "tags": ["a", "b"], "nested": {"x": [1, 2.5, -3e2, true, false, null]}}"#,
            #"["\u00e9\ud83d\ude00", "\"\\/\b\f\n\r\t", 0, -0.0, 1e308]"#, "[[[[[[[[1]]]]]]]]", "\u{FEFF}{}",
        ].map { Data($0.utf8) },
        tokens: ["[", "]", "{", "}", "\"", "\\u", "\\ud83d", ",", ":", "1e999", "-", "0", "null", "[[[[[[[["].map {
            Data($0.utf8)
        },
        run: { input in
            guard let value = try? JSONValue(parsing: input), let text = try? value.serialized() else { return }
            guard let again = try? JSONValue(parsing: text), again == value else {
                preconditionFailure("serialized JSON did not parse back to the same value")
            }
        })

    /// Path patterns, validated and matched against a few paths, a long one included.
    static let pattern = FuzzTarget(
        name: "pattern",
        seeds: ["/users/<id>/posts", "/files/**/<name>", "/a/*/b/{c}/${d}", "**", "/%2F/<x>/**/y"].map {
            Data($0.utf8)
        },
        tokens: ["/", "**", "*", "<", ">", "{", "}", "${", "%", "%2", "/**/"].map { Data($0.utf8) },
        run: { input in
            let text = String(decoding: input, as: UTF8.self)
            _ = try? PathPattern(validating: text)
            let pattern = PathPattern(text)
            for path in FuzzTarget.paths { _ = pattern.match(path) }
        })

    static let paths =
        ["/", "/users/7/posts", "/files/a/b/c.txt", "/a/x/b/c/d"]
        + ["/" + Array(repeating: "s", count: 500).joined(separator: "/")]

    /// `.http` mock-data files, answered through a folder.
    static let httpFile = FuzzTarget(
        name: "http-file",
        seeds: [
            "HTTP/1.1 201 Created\nContent-Type: application/json\nX-A: 1\n\n{\"id\": 1}\n",
            "HTTP/1.0 204 No Content\r\nSet-Cookie: a=1\r\nSet-Cookie: b=2\r\n\r\n",
            "HTTP/1.1 200 OK\nX-Long: part one\n  part two\n\nbody\n\nmore",
        ].map { Data($0.utf8) },
        tokens: ["\n", "\r\n", ":", " ", "HTTP/1.1 ", "999", "\u{0}", "Content-Length: 5\n"].map { Data($0.utf8) },
        run: { input in FuzzFiles.shared.answer(input, as: "GET|-x.http") })

    /// HAR cassettes, loaded and asked for one request.
    static let har = FuzzTarget(
        name: "har",
        seeds: [
            #"{"log": {"version": "1.2", "entries": [{"startedDateTime": "2026-11-22T10:00:00.000Z", "time": 12, "#
                + #""request": {"method": "GET", "url": "https://api.test/x?a=1", "#
                + #""headers": [{"name": "A", "value": "b"}]}, "#
                + #""response": {"status": 200, "headers": [{"name": "Content-Type", "value": "text/plain"}], "#
                + #""content": {"text": "aGk=", "encoding": "base64", "mimeType": "text/plain"}}}]}}"#,
            #"{"log": {"entries": [{"request": {"method": "POST", "url": "https://api.test/x", "postData": "#
                + #"{"mimeType": "application/json", "text": "{\"a\": 1}"}}, "#
                + #""response": {"status": 0, "_error": "net::ERR"}}]}}"#,
        ].map { Data($0.utf8) },
        tokens: [#"{"#, #"}"#, #"[]"#, #"""#, #""status": "#, #""headers": [{"name": ""#, "-1", "base64"].map {
            Data($0.utf8)
        },
        run: { input in FuzzFiles.shared.answer(input, as: "cassette.har") })

    /// YAHTTPVCR tapes: JSON arrays of scenes and XML property lists, loaded as cassettes.
    static let yahttpvcr = FuzzTarget(
        name: "yahttpvcr",
        seeds: [
            #"[{"id": "A", "type": 0, "data": {"url": "https://api.test/x?a=1", "method": "get", "#
                + #""headers": {"Accept": "*/*"}, "body": {"cls": "NSData", "base64": "aGk="}}}, "#
                + #"{"id": "A", "type": 1, "data": {"status": 200, "headers": {"X-A": "1"}}}, "#
                + #"{"id": "A", "type": 2, "data": {"base64": "b2s="}}, {"id": "A", "type": 4}, "#
                + #"{"id": "B", "type": 0, "data": {"url": "https://api.test/y"}}, "#
                + #"{"id": "B", "type": 3, "data": {"domain": "NSURLErrorDomain", "code": -1001}}]"#,
            #"<?xml version="1.0"?><plist version="1.0"><array><dict><key>id</key><string>A</string>"#
                + #"<key>type</key><integer>0</integer><key>data</key><dict><key>url</key>"#
                + #"<string>https://api.test/x</string></dict></dict></array></plist>"#,
        ].map { Data($0.utf8) } + binaryPropertyList,
        tokens: [#"{"#, #"}"#, #""type": "#, #""id": ""#, #""base64": ""#, "<dict>", "</dict>", "<array>", "-999"].map {
            Data($0.utf8)
        },
        run: { input in
            let isPropertyList = input.first == UInt8(ascii: "<") || input.starts(with: Array("bplist".utf8))
            FuzzFiles.shared.answer(input, as: isPropertyList ? "tape.plist" : "cassette.tape.json")
        })

    /// A binary property list tape, as Foundation writes one, for the mutations to break.
    static let binaryPropertyList: [Data] = {
        let scenes: [[String: Any]] = [
            ["id": "A", "type": 0, "data": ["url": "https://api.test/x", "method": "get"]],
            ["id": "A", "type": 1, "data": ["status": 201, "headers": ["X-A": "1"]]],
            ["id": "A", "type": 2, "data": ["cls": "NSData", "base64": "b2s="]],
            ["id": "A", "type": 4],
        ]
        let data = try? PropertyListSerialization.data(fromPropertyList: scenes, format: .binary, options: 0)
        return data.map { [$0] } ?? []
    }()

    /// `ScriptedServer` script files.
    static let script = FuzzTarget(
        name: "script",
        seeds: [
            #"{"greeting": [{"text": "220 hi\r\n"}], "rules": [{"match": "^USER (.*)$", "commands": "#
                + #"[{"text": "331 $1\r\n"}, {"pause": 0.01}, {"close": true}]}], "data": "abc", "framing": "lines"}"#,
            #"{"rules": [{"match": "(", "commands": []}], "framing": {"delimiter": "\r\n\r\n"}}"#,
        ].map { Data($0.utf8) },
        tokens: [#"{"#, #"}"#, #""match": ""#, "(", ")", "$1", "\\r\\n", "[", "]"].map { Data($0.utf8) },
        run: { input in FuzzFiles.shared.loadScript(input) })

    /// Raw request heads (and bodies) sent to a running `MockServer`.
    static let requestHead = FuzzTarget(
        name: "request-head",
        seeds: [
            "GET /users/7?x=1 HTTP/1.1\r\nHost: localhost\r\nAccept: */*\r\n\r\n",
            "POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello",
            "POST /upload HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
                + "5;ext=1\r\nhello\r\n0\r\nT: 1\r\n\r\n",
            "GET http://x:8080/a%20b|c HTTP/1.0\r\n\r\n",
        ].map { Data($0.utf8) },
        tokens: ["\r\n", "\n", " ", ":", "Host: ", "Content-Length: ", "Transfer-Encoding: chunked\r\n", "%", "#", "@"]
            .map { Data($0.utf8) },
        run: { input in FuzzServer.shared.deliver(input) })

    /// WebSocket frames sent to a running `MockServer` endpoint after a correct handshake.
    static let webSocket = FuzzTarget(
        name: "websocket",
        seeds: [
            // "say hi" masked, a ping, a fragmented "ab", a binary frame, a close 1000.
            [0x81, 0x86, 1, 2, 3, 4] + masked("say hi", [1, 2, 3, 4]) + [0x89, 0x80, 0, 0, 0, 0]
                + [0x01, 0x81, 9, 9, 9, 9] + masked("a", [9, 9, 9, 9]) + [0x80, 0x81, 9, 9, 9, 9]
                + masked("b", [9, 9, 9, 9])
                + [0x82, 0x82, 0, 0, 0, 0, 0, 7] + [0x88, 0x82, 0, 0, 0, 0, 0x03, 0xE8],
            [0x81, 0xFE, 0x00, 0x7E, 0, 0, 0, 0] + [UInt8](repeating: 0x61, count: 126),
            [0x81, 0xFF, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0] + masked(#"{"type": "ping"}"#, [0, 0, 0, 0]),
        ].map { Data($0) },
        tokens: [[0x81], [0x80], [0x88], [0x89], [0x8A], [0x00], [0x7E], [0x7F], [0xFF, 0xFF], [0xC3, 0x28]].map {
            Data($0)
        },
        run: { input in FuzzServer.shared.deliver(webSocketHandshake + input) })

    static let webSocketHandshake = Data(
        ("GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n").utf8)

    static func masked(_ text: String, _ mask: [UInt8]) -> [UInt8] {
        text.utf8.enumerated().map { $0.element ^ mask[$0.offset & 3] }
    }
}

extension FuzzTarget {
    /// OpenAPI contracts, read with their operations; the input is the entry file, next to a
    /// second file its `$ref`s may name (`other.json`, which refers back).
    static let openAPI = FuzzTarget(
        name: "openapi",
        seeds: [
            ##"{"openapi": "3.1.0", "info": {"title": "t", "version": "1"}, "paths": {"/pets/{id}": {"get": {"##
                + ##""operationId": "getPet", "responses": {"200": {"$ref": "#/components/responses/Pet"}, "##
                + ##""default": {"$ref": "other.json#/Problem"}}}}}, "components": {"responses": {"Pet": {"##
                + ##""description": "a pet", "content": {"application/json": {"schema": {"$ref": "other.json"}}}}}}}"##,
            ##"{"openapi": "3.0.3", "paths": {"/a": {"$ref": "other.json#/Item"}, "/b": {"post": {"requestBody": "##
                + ##"{"content": {"application/x-www-form-urlencoded": {}}}, "responses": {"2XX": {}}}}}}"##,
        ].map { Data($0.utf8) },
        tokens: [
            "{", "}", "[", "]", "\"", ",", ":", ##""$ref": "#"##, ##""$ref": "other.json#/Item""##, ##""#/paths""##,
            "~1", "~0",
            "%2F", ##""openapi": "3.2.0""##, ##""swagger": "2.0""##, ##""get": "##, ##""responses": "##,
        ].map { Data($0.utf8) },
        run: { input in FuzzFiles.shared.readContract(input) })
}

extension FuzzTarget {
    /// Schema `pattern`s: read, matched against a few values (a long one included), and their
    /// example, when they have one, must match.
    static let schemaPattern = FuzzTarget(
        name: "schema-pattern",
        seeds: [
            "^CA[0-9a-fA-F]{32}$", "^(SM|MM)[0-9a-f]{2,}$", "^[\\s\\S]{0,3}(?:a|b)*c(?<x>d)?$", "\\u00e9+\\d\\W[^a-z-]",
        ].map { Data($0.utf8) },
        tokens: ["(", ")", "[", "]", "{", "}", "{2,", "*", "+", "?", "|", "^", "$", "\\", "\\u", "(?:", "-", "."].map {
            Data($0.utf8)
        },
        run: { input in
            guard let pattern = try? SchemaPattern(String(decoding: input, as: UTF8.self)) else { return }
            for value in ["", "CA0", "aé\n1", String(repeating: "ab", count: 2_000)] { _ = pattern.matches(value) }
            if let example = pattern.example, !pattern.matches(example) {
                preconditionFailure("a pattern's example does not match it")
            }
        })
}

extension FuzzTarget {
    /// A schema and a value in one JSON document (`{"schema": …, "value": …}`): the schema is
    /// compiled and the value checked against it, in both directions.
    static let schemaValidation = FuzzTarget(
        name: "schema-validation",
        seeds: [
            ##"{"schema": {"type": "object", "required": ["id"], "properties": {"id": {"type": "integer", "##
                + ##""minimum": 1}, "tags": {"type": "array", "items": {"enum": ["a", "b"]}, "uniqueItems": true}}, "##
                + ##""additionalProperties": false}, "value": {"id": 0, "tags": ["a", "a", "c"], "x": null}}"##,
            ##"{"schema": {"oneOf": [{"$ref": "#/schema/$defs/a"}, {"type": "string", "pattern": "^x+$", "##
                + ##""format": "date"}], "$defs": {"a": {"allOf": [{"$ref": "#/schema"}], "nullable": true}}, "##
                + ##""discriminator": {"propertyName": "k"}}, "value": [{"k": "a"}, "xx", 1.5e3]}"##,
        ].map { Data($0.utf8) },
        tokens: [
            "{", "}", "[", "]", ",", ":", ##""$ref": "#/schema""##, ##""type": "##, ##""allOf": ["##, ##""oneOf": ["##,
            ##""not": "##, ##""items": "##, ##""pattern": "(a*)*$""##, ##""multipleOf": 0.1"##, "null", "1e308",
        ].map { Data($0.utf8) },
        run: { input in
            let url = URL(fileURLWithPath: "/nonexistent-request-mocker-fuzz/schema.json")
            guard let document = try? JSONValue(parsing: input), let value = document["value"],
                let schema = try? SchemaCompiler.compile(json: Array(input), at: "#/schema", as: url)
            else { return }
            _ = SchemaValidator.violations(of: value, against: schema, direction: .request)
            _ = SchemaValidator.violations(of: value, against: schema, direction: .response)
        })
}

extension FuzzTarget {
    /// YAML documents, read into a tree (anchors and aliases expanded, under the reader's cap);
    /// a tree that reads is written with `YAMLWriter` and must read back the same.
    static let yaml = FuzzTarget(
        name: "yaml",
        seeds: [
            "openapi: 3.1.0\ninfo: {title: t, version: 2024-10-01}\npaths:\n  /pets/{id}:\n    get:\n"
                + "      responses:\n        '200': {description: \"a \\u00e9 pet\"}\n",
            "base: &b {a: [1, 2.5, .inf, 0x1F]}\nlist:\n- <<: *b\n  c: |+\n    text\n\n- >-\n  folded\n  line\n"
                + "- ? long key\n  : value\n",
        ].map { Data($0.utf8) },
        tokens: [
            ":", " ", "\n", "- ", "? ", "&a ", "*a", "<<: ", "|", ">", "|-", ">+2", "[", "]", "{", "}", ",", "\"", "'",
            "#", "\t", "---\n", "...\n", "!!str ", "%YAML 1.2\n", "\\u", "  ",
        ].map { Data($0.utf8) },
        run: { input in
            guard let tree = try? YAMLReader.parse([UInt8](input)) else { return }
            guard let again = try? YAMLReader.parse(YAMLWriter.bytes(of: tree)), again.jsonBytes == tree.jsonBytes
            else {
                preconditionFailure("a tree written as YAML did not read back the same")
            }
        })
}

extension FuzzTarget {
    /// Recorded exchanges (`[{"method", "path", "status", "type", "body"}…]`, each body any JSON
    /// value): the contract drafted from them must load without a notice, and each exchange must
    /// pass `check` against it, however the bodies' shapes conflict.
    static let draft = FuzzTarget(
        name: "draft",
        seeds: [
            ##"[{"method": "GET", "path": "/users/1", "status": 200, "body": {"id": 1, "tags": ["a"], "m": null}}, "##
                + ##"{"method": "GET", "path": "/users/2", "status": 200, "##
                + ##""body": {"id": "x", "tags": [], "m": {"a": 1}}}, "##
                + ##"{"method": "POST", "path": "/events", "status": 201, "body": [{"type": "a", "x": 1}, "##
                + ##"{"type": "b", "y": [1.5, null]}]}, {"method": "GET", "path": "/scores", "status": 999, "##
                + ##""body": {"1": {"p": 1}, "a": "b"}}]"##
        ].map { Data($0.utf8) },
        tokens: [
            "{", "}", "[", "]", ",", ":", "null", "true", "1.5", "-0", "1e400", "18446744073709551616", ##""type": "##,
            ##""kind": "##, ##""2026-11-28T10:00:00Z""##, ##""a@b.c""##, ##""550e8400-e29b-41d4-a716-446655440000""##,
            ##""password": "##, ##""/users/7""##, ##""/files/a.txt/x""##, "999",
        ].map { Data($0.utf8) },
        run: { input in FuzzFiles.shared.draft(input) })
}

extension FuzzTarget {
    /// Form and multipart bodies, sent to a contract that reads their fields by its schema and
    /// `encoding`, checks them and stores them (`FormBody`, `MultipartBody`): the same bytes as
    /// `multipart/form-data; boundary=B` and as `application/x-www-form-urlencoded`.
    static let formBody = FuzzTarget(
        name: "form-body",
        seeds: [
            "--B\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\nTrip\r\n"
                + "--B\r\nContent-Disposition: form-data; name=\"meta\"\r\nContent-Type: application/json\r\n\r\n"
                + "{\"a\": 1}\r\n--B\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.png\"\r\n\r\n"
                + "PNG\r\n--B\r\nContent-Disposition: form-data; name=\"ids\"\r\n\r\n1\r\n--B--\r\n",
            "title=Trip&count=3&flag=true&ids=1&ids=2&csv=1,2,3&filter%5Bn%5D=4&meta=%7B%22a%22%3A1%7D",
        ].map { Data($0.utf8) },
        tokens: [
            "--B\r\n", "--B--", "\r\n\r\n", "\n", "Content-Disposition: form-data; name=\"", "\"; filename=\"",
            "Content-Type: application/json\r\n", "name=\"a;b\"", "&", "=", "%", "%5B", "[", "]", ",", "{", "}",
        ].map { Data($0.utf8) },
        run: { input in
            if let read = MultipartBody(input, boundary: "B") {
                precondition(read.parts.count <= MultipartBody.maximumParts, "more parts read than the bound")
            }
            FuzzFiles.shared.postForm(input)
        })
}
