# A real server for the redirect and cookie comparisons (RedirectParityTests, CookieTests):
#   /r/<status>?to=<location>   answers <status> with that Location (default /final), and
#                               Set-Cookie: hop=<status>; Path=/ when asked with &cookie=1
#   /login                      answers 200 with Set-Cookie: session=abc123; Path=/
#   anything else               answers 200 and echoes the request as JSON, in the body and
#                               (base64, for HEAD) in the X-Echo header
import base64, json, os, sys, threading, time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

def exit_with_parent(parent=os.getppid()):
    while os.getppid() == parent:
        time.sleep(0.2)
    os._exit(0)

threading.Thread(target=exit_with_parent, daemon=True).start()

class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def reply(self, status, body=b"", extra=()):
        self.send_response(status)
        for name, value in extra:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def answer(self):
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length).decode("utf-8", "replace") if length else ""
        url = urlsplit(self.path)
        query = parse_qs(url.query)
        if url.path.startswith("/r/"):
            extra = [("Location", query.get("to", ["/final"])[0])]
            if "cookie" in query:
                extra.append(("Set-Cookie", "hop=%s; Path=/" % url.path[3:]))
            self.reply(int(url.path[3:]), extra=extra)
        elif url.path == "/login":
            self.reply(200, b"in", extra=[("Set-Cookie", "session=abc123; Path=/")])
        else:
            echo = json.dumps({"method": self.command, "path": self.path, "body": body,
                               "headers": {k.lower(): v for k, v in self.headers.items()}},
                              sort_keys=True).encode()
            self.reply(200, echo, extra=[("Content-Type", "application/json"),
                                         ("X-Echo", base64.b64encode(echo).decode())])

    do_GET = do_HEAD = do_POST = do_PUT = do_DELETE = do_PATCH = answer

    def log_message(self, *args):
        pass

class Server(ThreadingHTTPServer):
    # The listen backlog: socketserver's 5 overflows when a suite's cases connect at once.
    request_queue_size = 1024

server = Server(("127.0.0.1", 0), Handler)
print(server.server_address[1], flush=True)
server.serve_forever()
