"""Reads an event stream through `request-mocker serve --upstream-first` with Python's
http.client, to show each event reaches the client when it comes: it reads the first event, then
(the stream still open) reads the server's drift report and lets the upstream end the stream
(GET /release), then reads the rest. Prints {"first", "drift", "rest"} as JSON.

usage: event_stream_client.py SERVE_PORT UPSTREAM_PORT
"""
import http.client
import json
import sys

from test_child import become_a_test_child

become_a_test_child()
serve_port, upstream_port = int(sys.argv[1]), int(sys.argv[2])

stream = http.client.HTTPConnection("127.0.0.1", serve_port, timeout=60)
stream.request("GET", "/events")
response = stream.getresponse()
first = b""
while b"\n\n" not in first:
    piece = response.read1(65536)
    if not piece:
        break
    first += piece

admin = http.client.HTTPConnection("127.0.0.1", serve_port, timeout=60)
admin.request("GET", "/__admin/drift")
drift = json.loads(admin.getresponse().read())

upstream = http.client.HTTPConnection("127.0.0.1", upstream_port, timeout=60)
upstream.request("GET", "/release")
upstream.getresponse().read()

rest = response.read()
print(json.dumps({"first": first.decode(), "drift": drift, "rest": rest.decode()}))
