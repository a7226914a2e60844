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
        elif self.path.startswith("/hang"):
            # An hour, longer than any test waits: a timeout on the client's side always comes first.
            time.sleep(3600)
            self.send(200, b'{"hang":true}')
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

class Server(ThreadingHTTPServer):
    # The listen backlog: socketserver's 5 overflows when many tests connect at once.
    request_queue_size = 1024

server = Server(("127.0.0.1", 0), Echo)
print(server.server_address[1], flush=True)
server.serve_forever()
