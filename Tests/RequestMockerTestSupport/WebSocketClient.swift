import Foundation

extension ExternalProcess {
    /// Runs a client of Python's `websockets` (10.4 or later, a client no one here wrote) against
    /// `url`: `body` is the inside of `async def main(ws)`, with the connection open as `ws`.
    /// `await print_close(ws)` reads until the server closes and prints its close code and reason.
    /// The client gives up after `timeout` (the process is stopped 10 s later).
    package static func webSocketClient(
        _ url: String, _ body: String, subprotocols: [String] = [], timeout: Duration = .seconds(60)
    ) async throws -> ProcessResult {
        try await Tool.websockets.require()
        let indented = body.split(separator: "\n", omittingEmptySubsequences: false).map { "    " + $0 }
        let script = """
            import asyncio, json, sys
            import websockets
            from websockets.exceptions import ConnectionClosed
            async def print_close(ws):
                try:
                    await asyncio.wait_for(ws.recv(), float(sys.argv[3]))
                except ConnectionClosed as closed:
                    print(closed.rcvd.code, closed.rcvd.reason)
            async def main(ws):
            \(indented.joined(separator: "\n"))
            async def run():
                async with websockets.connect(sys.argv[1], open_timeout=25, ping_interval=None,
                                              subprotocols=json.loads(sys.argv[2]) or None) as ws:
                    await main(ws)
            asyncio.run(asyncio.wait_for(run(), float(sys.argv[3])))
            """
        let offered = "[" + subprotocols.map { "\"\($0)\"" }.joined(separator: ",") + "]"
        let seconds = String(timeout.components.seconds)
        return try await python(script, [url, offered, seconds], timeout: timeout + .seconds(10))
    }
}
