import Foundation
import RequestMocker
import RequestMockerGraphQL
import RequestMockerServer
import RequestMockerTestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A GraphQL schema served by the loopback server: curl gets the bytes `URLSession` gets in
/// process, and Python's `websockets` speaks `graphql-transport-ws` to its subscriptions.
@Suite(.timeLimit(.minutes(3)), .hangGuard) struct GraphQLServerTests {
    static let sdl = """
        type Query { viewer: User! }
        type User { id: ID!, name: String! }
        type Review { stars: Int!, author: User! }
        type Subscription { reviewAdded: Review! }
        """

    static func registry(interval: Duration = .zero) throws -> MockRegistry {
        let registry = MockRegistry()
        let schema = try GraphQLSchema(sdl: sdl)
        var mocks = GraphQLMocks()
        mocks.subscriptions["Named"] = [
            .object([("data", .object([("reviewAdded", .object([("stars", .int(5))]))]))])
        ]
        registry.register(
            GraphQLEndpoint(
                schema: schema, mocks: mocks, file: URL(fileURLWithPath: "/schema.graphql"), host: nil,
                path: "/graphql", eventInterval: interval))
        return registry
    }

    @Test func curlGetsWhatURLSessionGetsInProcess() async throws {
        let registry = try Self.registry()
        let body = #"{"query": "query Me { viewer { id name } }"}"#
        var request = URLRequest(url: try #require(URL(string: "https://api.example.com/graphql")))
        request.httpMethod = "POST"
        request.httpBody = Data(body.utf8)
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        let (inProcess, _) = try await registry.session.data(for: request)
        try await withServer(registry) { _, base in
            let served = try await ExternalProcess.curl([
                "-H", "Content-Type: application/json", "--data-binary", body, base.absoluteString + "/graphql",
            ])
            #expect(served.output == String(decoding: inProcess, as: UTF8.self))
            #expect(served.output.hasPrefix(#"{"data":{"viewer":{"id":"User-"#))
        }
    }

    @Test func subscriptionsSpeakGraphQLTransportWS() async throws {
        try await withServer(try Self.registry()) { _, base in
            let result = try await ExternalProcess.webSocketClient(
                "ws://127.0.0.1:\(base.port ?? 0)/graphql",
                """
                print(ws.subprotocol)
                await ws.send(json.dumps({"type": "connection_init"}))
                print(await ws.recv())
                await ws.send(json.dumps({"type": "ping"}))
                print(await ws.recv())
                await ws.send(json.dumps({"id": "1", "type": "subscribe", "payload": {
                    "query": "subscription Named { reviewAdded { stars } }"}}))
                print(await ws.recv())
                print(await ws.recv())
                await ws.send(json.dumps({"id": "2", "type": "subscribe", "payload": {
                    "query": "subscription { reviewAdded { stars author { name } } }"}}))
                events = [json.loads(await ws.recv()) for _ in range(4)]
                print([event["type"] for event in events], len({json.dumps(e.get("payload")) for e in events[:3]}))
                await ws.send(json.dumps({"id": "3", "type": "subscribe", "payload": {
                    "query": "subscription { reviewAdded { nope } }"}}))
                print(await ws.recv())
                await ws.send(json.dumps({"id": "4", "type": "subscribe", "payload": {"query": "{ viewer { id } }"}}))
                print(json.loads(await ws.recv())["type"], await ws.recv())
                await ws.send(json.dumps({"type": "connection_init"}))
                await print_close(ws)
                """, subprotocols: ["graphql-transport-ws"])
            #expect(
                result.output
                    == """
                    graphql-transport-ws
                    {"type":"connection_ack"}
                    {"type":"pong"}
                    {"id":"1","type":"next","payload":{"data":{"reviewAdded":{"stars":5}}}}
                    {"id":"1","type":"complete"}
                    ['next', 'next', 'next', 'complete'] 3
                    {"id":"3","type":"error","payload":[{"message":\
                    "Cannot query field \\"nope\\" on type \\"Review\\".",\
                    "locations":[{"line":1,"column":30}]}]}
                    next {"id":"4","type":"complete"}
                    4429 Too many initialisation requests

                    """, "\(result.error)")
        }
    }

    @Test func theProtocolsMistakesCloseWithItsCodes() async throws {
        try await withServer(try Self.registry()) { _, base in
            let url = "ws://127.0.0.1:\(base.port ?? 0)/graphql"
            let early = try await ExternalProcess.webSocketClient(
                url,
                """
                await ws.send(json.dumps({"id": "1", "type": "subscribe", "payload": {"query": "{ viewer { id } }"}}))
                await print_close(ws)
                """, subprotocols: ["graphql-transport-ws"])
            #expect(early.output == "4401 Unauthorized\n", "\(early.error)")
            let garbled = try await ExternalProcess.webSocketClient(
                url,
                """
                await ws.send("hello")
                await print_close(ws)
                """, subprotocols: ["graphql-transport-ws"])
            #expect(
                garbled.output == "4400 Invalid message: a JSON object with a \"type\" was expected\n",
                "\(garbled.error)")
        }
    }

    @Test func theClientsCompleteStopsASubscription() async throws {
        // An hour between events: the first comes at once, the rest would wait.
        try await withServer(try Self.registry(interval: .seconds(3600))) { _, base in
            let result = try await ExternalProcess.webSocketClient(
                "ws://127.0.0.1:\(base.port ?? 0)/graphql",
                """
                await ws.send(json.dumps({"type": "connection_init"}))
                await ws.recv()
                await ws.send(json.dumps({"id": "a", "type": "subscribe", "payload": {
                    "query": "subscription { reviewAdded { stars } }"}}))
                print(json.loads(await ws.recv())["type"])
                await ws.send(json.dumps({"id": "a", "type": "complete"}))
                # Its id is free again once it is stopped.
                await ws.send(json.dumps({"id": "a", "type": "subscribe", "payload": {
                    "query": "subscription Named { reviewAdded { stars } }"}}))
                print(await ws.recv())
                print(await ws.recv())
                """, subprotocols: ["graphql-transport-ws"])
            #expect(
                result.output
                    == """
                    next
                    {"id":"a","type":"next","payload":{"data":{"reviewAdded":{"stars":5}}}}
                    {"id":"a","type":"complete"}

                    """, "\(result.error)")
        }
    }
}
