import Foundation
import RequestMocker
import RequestMockerServer
import RequestMockerTestSupport
import Testing

/// A JSON request body nested as deeply as the parser allows is matched, named and answered on
/// the server's connection threads (the library's smallest stacks), in debug builds too; one
/// level deeper is reported, not a crash.
@Suite(.timeLimit(.minutes(3)), .hangGuard) struct DeepJSONTests {
    /// Arrays nested `depth` levels around one number.
    static func nested(_ depth: Int) -> (text: String, value: JSONValue) {
        var value: JSONValue = 1
        for _ in 0..<depth { value = [value] }
        return (String(repeating: "[", count: depth) + "1" + String(repeating: "]", count: depth), value)
    }

    static func post(_ path: String, _ body: String) -> String {
        "POST \(path) HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nConnection: close\r\n"
            + "Content-Length: \(body.utf8.count)\r\n\r\n\(body)"
    }

    @Test func bodiesNestedUpToTheLimitAreMatchedAndNamedOnConnectionThreads() async throws {
        let folder = try TemporaryFolder()
        try folder.write("POST|-users|*.json", #"{"ok":true}"#)
        let registry = MockRegistry()
        let deepest = Self.nested(JSONValue.maximumNesting)
        registry.register(.post("/match").jsonBody(deepest.value), respond: .string("matched"))
        registry.register(try MockDataFolder(folder.url, allowsWildcards: true))
        try await withServer(registry) { _, base in
            let port = UInt16(base.port ?? 0)
            let matched = try await RawClient.exchange(port: port, [Self.post("/match", deepest.text)])
            #expect(matched.response.hasPrefix("HTTP/1.1 200 "), "\(matched.response.prefix(200))")
            #expect(matched.response.hasSuffix("\r\n\r\nmatched"))
            for depth in [261, 300, JSONValue.maximumNesting] {
                let named = try await RawClient.exchange(port: port, [Self.post("/users", Self.nested(depth).text)])
                #expect(named.response.hasPrefix("HTTP/1.1 200 "), "depth \(depth): \(named.response.prefix(200))")
                #expect(named.response.hasSuffix(#"{"ok":true}"#))
            }
        }
    }

    @Test func aBodyOneLevelTooDeepIsReportedAsNotJSON() async throws {
        let registry = MockRegistry()
        registry.register(.post("/match").jsonBody(Self.nested(3).value), respond: .string("matched"))
        try await withServer(registry) { _, base in
            let port = UInt16(base.port ?? 0)
            let tooDeep = Self.nested(JSONValue.maximumNesting + 1).text
            let reply = try await RawClient.exchange(port: port, [Self.post("/match", tooDeep)])
            #expect(reply.response.hasPrefix("HTTP/1.1 404 "), "\(reply.response.prefix(200))")
            #expect(
                reply.response.contains("body is not JSON (invalid JSON at byte 512: nesting deeper than 512 levels)"))
        }
    }
}
