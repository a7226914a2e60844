import Foundation
import RequestMocker
import RequestMockerTestSupport
import Testing

/// A real HTTP server no one here wrote: Python's `http.server`, with a handler that echoes
/// what it received as JSON. Started per test on a free loopback port.
final class PythonEchoServer: Sendable {
    let process: Process
    let port: Int

    static let script = #"""
    import gzip, json, os, sys, threading, time
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    def exit_with_parent(parent=os.getppid()):
        while os.getppid() == parent:
            time.sleep(0.2)
        os._exit(0)

    threading.Thread(target=exit_with_parent, daemon=True).start()
    counter = {"n": 0}
    lock = threading.Lock()

    class Echo(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def send(self, status, body, content_type="application/json", extra=()):
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("X-Served-By", "python")
            for name, value in extra:
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def answer(self):
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length).decode("utf-8", "replace") if length else ""
            if self.path.startswith("/redirect"):
                self.send(302, b"", extra=[("Location", "/echo/after-redirect")])
            elif self.path.startswith("/counter"):
                with lock:
                    counter["n"] += 1
                    n = counter["n"]
                self.send(200, json.dumps({"count": n}).encode())
            elif self.path.startswith("/login"):
                payload = {"token": "secret-token", "user": {"name": "ada", "password": "hunter2"}}
                self.send(200, json.dumps(payload).encode(), extra=[("Set-Cookie", "session=abc123; Path=/; HttpOnly")])
            elif self.path.startswith("/binary"):
                self.send(200, bytes(range(256)), "application/octet-stream")
            elif self.path.startswith("/gzip"):
                self.send(200, gzip.compress(b'{"compressed":true}'), extra=[("Content-Encoding", "gzip")])
            elif self.path.startswith("/slow"):
                time.sleep(0.3)
                self.send(200, b'{"slow":true}')
            elif self.path.startswith("/missing"):
                self.send(404, b'{"error":"not found"}')
            else:
                payload = {"method": self.command, "path": self.path, "body": body,
                           "header": self.headers.get("X-Test", ""),
                           "authorization": self.headers.get("Authorization", "")}
                self.send(200, json.dumps(payload).encode())
        do_GET = do_POST = do_PUT = do_DELETE = answer
        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Echo)
    print(server.server_address[1], flush=True)
    server.serve_forever()
    """#

    init() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", Self.script]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            guard !chunk.isEmpty else { break }
            line += chunk
        }
        guard let port = Int(String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) else {
            process.terminate()
            throw ServerDidNotStart(output: String(decoding: line, as: UTF8.self))
        }
        self.process = process
        self.port = port
    }

    var baseURL: String { "http://127.0.0.1:\(port)" }

    /// Stops the server. Does not wait: `waitUntilExit()` spins forever when called from a
    /// Swift concurrency thread on Linux (starving the pool), and `isRunning` is not updated
    /// there either. The script exits on SIGTERM, and also when its parent goes away.
    func stop() {
        process.terminate()
    }

    struct ServerDidNotStart: Error {
        let output: String
    }
}
