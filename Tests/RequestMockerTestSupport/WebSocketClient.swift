import Foundation

extension ExternalProcess {
    /// Runs a client of Python's `websockets` (10.4 or later, a client no one here wrote) against
    /// `url`: `body` is the inside of `async def main(ws)`, with the connection open as `ws`.
    /// `await print_close(ws)` reads until the server closes and prints its close code and reason.
    package static func webSocketClient(
        _ url: String, _ body: String, subprotocols: [String] = []
    ) async throws -> ProcessResult {
        try await Tool.websockets.require()
        let indented = body.split(separator: "\n", omittingEmptySubsequences: false).map { "    " + $0 }
        let script = """
            import asyncio, json, sys
            import websockets
            from websockets.exceptions import ConnectionClosed
            async def print_close(ws):
                try:
                    await ws.recv()
                except ConnectionClosed as closed:
                    print(closed.rcvd.code, closed.rcvd.reason)
            async def main(ws):
            \(indented.joined(separator: "\n"))
            async def run():
                async with websockets.connect(sys.argv[1], open_timeout=25, ping_interval=None,
                                              subprotocols=json.loads(sys.argv[2]) or None) as ws:
                    await main(ws)
            asyncio.run(run())
            """
        let offered = "[" + subprotocols.map { "\"\($0)\"" }.joined(separator: ",") + "]"
        return try await python(script, [url, offered])
    }
}
