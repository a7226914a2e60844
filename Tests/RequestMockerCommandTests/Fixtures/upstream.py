"""The upstream `request-mocker serve --upstream` forwards to in the command's tests: a small
JSON API on a free loopback port, which prints its URL once it listens.

GET /users/<n>      {"id": n, "name": "User n"}
POST /echo          what arrived: method, path, query, headers (lower-cased names), body
GET /stream         three lines, chunked: "line <n>", each sent only once the client has
                    acknowledged the one before with GET /ack/<n> (one stream at a time); a
                    line not acknowledged within 30 s is followed by "never-acknowledged <n>",
                    which ends the stream
GET /ack/<n>        acknowledges line n of the stream
GET /status/<code>  that status, with a JSON body
GET /broken         promises 100 bytes, sends 10, and closes
POST /login         a token in the body and a session cookie, as a sign-in answers
"""
import http.server
import json
import threading

# The fixture beside this script: signals unblocked, and gone with the test process.
from test_child import become_a_test_child

become_a_test_child()

# The stream's acknowledgements, by line number: set by GET /ack/<n>, awaited by GET /stream.
acknowledgements_lock = threading.Lock()
acknowledgements = {}


def acknowledgement(index):
    with acknowledgements_lock:
        return acknowledgements.setdefault(index, threading.Event())


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def send_json(self, status, value, extra=()):
        body = json.dumps(value, sort_keys=True).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        for name, value in extra:
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)

    def send_chunk(self, text):
        data = text.encode()
        self.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))
        self.wfile.flush()

    def echo(self):
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length).decode() if length else ""
        path, _, query = self.path.partition("?")
        headers = {name.lower(): value for name, value in self.headers.items()}
        self.send_json(200, {"method": self.command, "path": path, "query": query, "headers": headers, "body": body})

    def do_GET(self):
        parts = self.path.split("?")[0].strip("/").split("/")
        if parts[0] == "users" and len(parts) == 2:
            self.send_json(200, {"id": int(parts[1]), "name": f"User {parts[1]}"}, [("X-Upstream", "yes")])
        elif parts[0] == "stream":
            with acknowledgements_lock:
                acknowledgements.clear()
            self.send_response(200)
            self.send_header("Content-Type", "text/plain")
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            for index in range(3):
                self.send_chunk(f"line {index}\n")
                # The next line only once the client has this one. A relay that held this piece
                # back for the next would keep the acknowledgement from coming: after the bound,
                # the marker goes out and the stream ends.
                if not acknowledgement(index).wait(30):
                    self.send_chunk(f"never-acknowledged {index}\n")
                    break
            self.wfile.write(b"0\r\n\r\n")
        elif parts[0] == "ack" and len(parts) == 2:
            acknowledgement(int(parts[1])).set()
            self.send_response(204)
            self.end_headers()
        elif parts[0] == "broken":
            self.send_response(200)
            self.send_header("Content-Length", "100")
            self.end_headers()
            self.wfile.write(b"0123456789")
            self.wfile.flush()
            self.close_connection = True
        elif parts[0] == "status" and len(parts) == 2:
            self.send_json(int(parts[1]), {"status": int(parts[1])})
        else:
            self.echo()

    def do_POST(self):
        if self.path == "/login":
            self.rfile.read(int(self.headers.get("Content-Length") or 0))
            self.send_json(200, {"access_token": "tok-s3cret", "user": "ada"}, [("Set-Cookie", "session=s3cret")])
        else:
            self.echo()

    do_PUT = do_POST
    do_DELETE = do_POST

    def log_message(self, *arguments):
        pass


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
print(f"upstream at http://127.0.0.1:{server.server_address[1]}", flush=True)
server.serve_forever()
