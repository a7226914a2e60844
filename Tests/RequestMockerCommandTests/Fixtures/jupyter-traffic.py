"""Drives a real Jupyter Server (jupyter_server, from PyPI) through its REST API, as a client app
would: contents (several files, so that their names fold), checkpoints, a kernel, a session,
configuration and terminals. Usage: python3 jupyter-traffic.py BASE_URL TOKEN

Every call goes through BASE_URL (request-mocker serve --upstream ... --record), so the traffic
is recorded for request-mocker draft. Exits non-zero, saying which call, when the server answers
what a working client would not expect."""

import json
import sys
import urllib.error
import urllib.request

BASE, TOKEN = sys.argv[1].rstrip("/"), sys.argv[2]


def call(method, path, body=None, expect=(200,)):
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(BASE + path, data=data, method=method)
    request.add_header("Authorization", "token " + TOKEN)
    if data is not None:
        request.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            status, text = response.status, response.read()
    except urllib.error.HTTPError as error:
        status, text = error.code, error.read()
    if status not in expect:
        raise SystemExit(f"{method} {path}: {status} {text[:300]!r}")
    return json.loads(text) if text[:1] in (b"{", b"[") else None


call("GET", "/api/")
call("GET", "/api/status")
call("GET", "/api/me")
call("GET", "/api/kernelspecs")

# Contents: files, their checkpoints, a notebook, a folder, a rename and deletes.
call("GET", "/api/contents")
files = ["alpha.txt", "beta.txt", "gamma.txt", "delta.txt"]
for name in files:
    call("PUT", f"/api/contents/{name}", {"type": "file", "format": "text", "content": f"{name}\n"}, (200, 201))
    call("GET", f"/api/contents/{name}")
    call("GET", f"/api/contents/{name}?content=0")
    checkpoint = call("POST", f"/api/contents/{name}/checkpoints", expect=(201,))
    call("GET", f"/api/contents/{name}/checkpoints")
    call("POST", f"/api/contents/{name}/checkpoints/{checkpoint['id']}", expect=(204,))
for name in files[:3]:
    call("DELETE", f"/api/contents/{name}/checkpoints/checkpoint", expect=(204,))
notebook = {"cells": [], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
for name in ["one.ipynb", "two.ipynb", "three.ipynb"]:
    call("PUT", f"/api/contents/{name}", {"type": "notebook", "content": notebook}, (200, 201))
    call("GET", f"/api/contents/{name}")
folder = call("POST", "/api/contents", {"type": "directory"}, (201,))
call("PATCH", f"/api/contents/{urllib.request.quote(folder['path'])}", {"path": "renamed"})
call("GET", "/api/contents/renamed")
call("DELETE", "/api/contents/renamed", expect=(204,))
call("DELETE", "/api/contents/delta.txt", expect=(204,))

# One kernel (each is a process that takes a second of CPU to start): started, listed, read,
# interrupted; then a session on it, read, renamed and deleted, which stops the kernel too.
kernel = call("POST", "/api/kernels", {"name": "python3"}, (201,))
call("GET", "/api/kernels")
call("GET", f"/api/kernels/{kernel['id']}")
call("POST", f"/api/kernels/{kernel['id']}/interrupt", expect=(204,))
session = call(
    "POST",
    "/api/sessions",
    {"path": "one.ipynb", "type": "notebook", "name": "one.ipynb", "kernel": {"id": kernel["id"]}},
    (201,),
)
call("GET", "/api/sessions")
call("GET", f"/api/sessions/{session['id']}")
call("PATCH", f"/api/sessions/{session['id']}", {"path": "one-renamed.ipynb"})
call("DELETE", f"/api/sessions/{session['id']}", expect=(204,))

# Configuration sections.
for section in ["notebook", "tree", "common"]:
    call("GET", f"/api/config/{section}")
call("PATCH", "/api/config/notebook", {"recent": ["one.ipynb"]})

# Terminals, when the server has terminado.
terminals = [call("POST", "/api/terminals", expect=(200, 404)) for _ in range(2)]
if all(terminals):
    call("GET", "/api/terminals")
    for terminal in terminals:
        call("GET", f"/api/terminals/{terminal['name']}")
        call("DELETE", f"/api/terminals/{terminal['name']}", expect=(204,))
print("ok")
