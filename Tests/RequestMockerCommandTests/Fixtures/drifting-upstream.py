"""The upstream `request-mocker serve --upstream-first` checks in the command's tests: a backend
that has drifted from DriftTests' contract in each way one does, and lacks two of its operations.
It listens on a free loopback port and prints its URL once it does.

GET /pets/1           a pet, as the contract says
GET /pets/2, /pets/3  "id" a string (a wrong type)
GET /pets/4           no "name" (a missing required property)
GET /pets/5           a "color" too (an undeclared property)
GET /pets/6           500 (an undeclared status)
GET /pets/7           a pet, as the contract says
GET /pets/8           "id" a string, the body chunked in three pieces
GET /pets/9           a pet, gzip-encoded whatever the request accepts
GET /pets/404         404: no such pet (getPet is built here: the 404 is real)
GET /owners/…         404: not built here at all
GET /pets             text/csv (an undeclared media type); 501 with ?limit=501 (not built yet)
GET /toys             [] (an undocumented operation)
GET /session          a token that is a string, where the contract says integer
GET /events           an event stream: "data: one", then, once GET /release has come (or after
                      30 s), "data: two", and the end
GET /release          lets /events end
Any request           X-Accept-Encoding in the answer: the Accept-Encoding that arrived
"""
import gzip
import http.server
import json
import threading
import time

# The fixture beside this script: signals unblocked, and gone with the test process.
from test_child import become_a_test_child

become_a_test_child()

PETS = {
    "1": {"id": 1, "name": "Rex"},
    "2": {"id": "2", "name": "Bo"},
    "3": {"id": "3", "name": "Cy"},
    "4": {"id": 4},
    "5": {"id": 5, "name": "Al", "color": "red"},
    "7": {"id": 7, "name": "Di"},
}


# Set by GET /release, awaited by GET /events.
released = threading.Event()


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def answer(self, status, body, content_type="application/json", extra=()):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("X-Accept-Encoding", self.headers.get("Accept-Encoding", "(none)"))
        for name, value in extra:
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        path, _, query = self.path.partition("?")
        parts = path.strip("/").split("/")
        if parts == ["pets"]:
            if "limit=501" in query.split("&"):
                self.answer(501, b'{"error": "not implemented"}')
            else:
                self.answer(200, b"id,name\n1,Rex\n", "text/csv")
        elif parts == ["toys"]:
            self.answer(200, b"[]")
        elif parts == ["events"]:
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            for event, wait in [(b"data: one\n\n", True), (b"data: two\n\n", False)]:
                self.wfile.write(b"%x\r\n%s\r\n" % (len(event), event))
                self.wfile.flush()
                if wait:
                    released.wait(30)
            self.wfile.write(b"0\r\n\r\n")
        elif parts == ["release"]:
            released.set()
            self.answer(200, b"{}")
        elif parts == ["session"]:
            self.answer(200, b'{"token": "sk-live-4f9a"}')
        elif len(parts) == 2 and parts[0] == "pets" and parts[1] in PETS:
            self.answer(200, json.dumps(PETS[parts[1]]).encode())
        elif parts == ["pets", "6"]:
            self.answer(500, b'{"error": "boom"}')
        elif parts == ["pets", "8"]:
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            for piece in [b'{"id": ', b'"8", "name": ', b'"Ed"}']:
                self.wfile.write(b"%x\r\n%s\r\n" % (len(piece), piece))
                self.wfile.flush()
                time.sleep(0.05)
            self.wfile.write(b"0\r\n\r\n")
        elif parts == ["pets", "9"]:
            body = gzip.compress(b'{"id": 9, "name": "Gus"}')
            self.answer(200, body, extra=[("Content-Encoding", "gzip")])
        else:
            self.answer(404, b'{"error": "no such route"}')

    def log_message(self, format, *args):
        pass


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
server.daemon_threads = True
print(f"http://127.0.0.1:{server.server_address[1]}", flush=True)
server.serve_forever()
