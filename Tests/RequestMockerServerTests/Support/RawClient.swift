import Foundation
import RequestMockerTestSupport

/// What a raw TCP exchange got back.
struct RawReply: Sendable, Decodable {
    /// Everything received, as Latin-1 text (so any byte survives).
    let response: String
    /// `closed` (an orderly end), `reset`, or `timeout` (still open when the client gave up).
    let ending: String
}

/// A client that writes exactly the bytes given, through Python's `socket` module: for
/// requests no well-behaved client would send.
enum RawClient {
    private static let script = """
        import json, socket, sys, time
        port, parts, pause, timeout = int(sys.argv[1]), json.loads(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4])
        s = socket.create_connection(("127.0.0.1", port))
        s.settimeout(timeout)
        for i, part in enumerate(parts):
            if i:
                time.sleep(pause)
            try:
                s.sendall(part.encode("latin-1"))
            except OSError:
                break
        out, ending = b"", "timeout"
        try:
            while True:
                data = s.recv(65536)
                if not data:
                    ending = "closed"
                    break
                out += data
        except socket.timeout:
            ending = "timeout"
        except ConnectionResetError:
            ending = "reset"
        print(json.dumps({"response": out.decode("latin-1"), "ending": ending}))
        """

    /// Sends `parts` (pausing between them), then reads until the server closes or `timeout`
    /// seconds pass without a byte. The server closes in every exchange a test expects to end
    /// (a `Connection: close`, a refusal, a timeout of its own, `stop()`), so the long default
    /// costs nothing; it only bounds a server that wrongly keeps the connection open. The process
    /// may run for the whole exchange: the pauses, a read of `timeout` seconds, and 30 s to
    /// start and exit, however busy the machine.
    static func exchange(
        port: UInt16, _ parts: [String], pause: Double = 0, timeout: Double = 60
    ) async throws -> RawReply {
        let encoded = String(decoding: try JSONEncoder().encode(parts), as: UTF8.self)
        let pauses = pause * Double(max(parts.count - 1, 0))
        let result = try await ExternalProcess.python(
            script, [String(port), encoded, String(pause), String(timeout)],
            timeout: .seconds(timeout + pauses + 30))
        guard result.status == 0 else { throw RawClientFailed(message: result.error) }
        return try JSONDecoder().decode(RawReply.self, from: Data(result.output.utf8))
    }
}

struct RawClientFailed: Error, CustomStringConvertible {
    let message: String
    var description: String { "the raw client failed: \(message)" }
}
