# Starts `request-mocker serve FOLDER` under a file-descriptor limit, then holds idle connections
# open one more at a time, changing the folder before each request so that it is listed again,
# until a request finds no descriptor for the listing or the file. Then it lets every connection
# go and asks once more. Prints the statuses, the refusal's body and the last status as JSON.
# Usage: descriptor_limit_client.py EXECUTABLE FOLDER LIMIT
#
# No step waits on a clock: what the server holds is read from /proc/<pid>/fd (its connections
# are the sockets there besides the listener), and every wait for it is bounded (30 s), as is
# every read of an answer (60 s). An idle connection the server closes (after its idle timeout,
# on a slow machine) is let go and the next ones make up for it. The server never outlives this
# script: it is stopped in a `finally`, which SIGTERM reaches too, and should the script be
# killed outright, the kernel kills it (a parent-death signal).
import ctypes, json, os, re, resource, select, signal, socket, subprocess, sys, tempfile, time

exe, folder, limit = sys.argv[1], sys.argv[2], int(sys.argv[3])
signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
# Looked up before the fork: the child only calls it.
prctl = ctypes.CDLL(None, use_errno=True).prctl
PR_SET_PDEATHSIG = 1
parent = os.getpid()


def in_the_child():
    resource.setrlimit(resource.RLIMIT_NOFILE, (limit, limit))
    prctl(PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)
    if os.getppid() != parent:  # the script ended before the signal was asked for
        os.kill(os.getpid(), signal.SIGKILL)


def wait_for(what, condition, seconds=30):
    """Polls `condition` until it returns something true, and returns that; fails after `seconds`."""
    deadline = time.monotonic() + seconds
    while True:
        if server.poll() is not None:
            raise SystemExit(f"request-mocker ended ({server.returncode}) while waiting for {what}: {printed()}")
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            total, sockets = descriptors()
            raise SystemExit(f"gave up waiting for {what} after {seconds} s; the server holds {total} descriptors, "
                             f"{sockets} of them sockets, and this script {len(idle)} idle connections")
        time.sleep(0.01)


def printed():
    with open(log_path, errors="replace") as log:
        return log.read()


def descriptors():
    """The server's open descriptors: how many, and how many of them are sockets."""
    total = sockets = 0
    for name in os.listdir(f"/proc/{server.pid}/fd"):
        try:
            target = os.readlink(f"/proc/{server.pid}/fd/{name}")
        except FileNotFoundError:  # closed meanwhile
            continue
        total += 1
        sockets += target.startswith("socket:")
    return total, sockets


def settled():
    """Whether the server holds exactly the idle connections (and its listener), after letting go
    of those it closed."""
    closed, _, _ = select.select(idle, [], [], 0) if idle else ([], [], [])
    for s in closed:
        idle.remove(s)
        s.close()
    return descriptors()[1] == 1 + len(idle)


def holding():
    """Waits until the server holds the idle connections and no other."""
    wait_for("the server to hold just the idle connections", settled)


def ask():
    """One request on a new connection; its answer, read to the end.

    A server that has every descriptor in use can't accept the connection: seen as the limit
    reached with the connection not among the server's sockets, it frees one idle connection.
    """
    s = socket.create_connection(("127.0.0.1", port), timeout=60)
    try:
        s.sendall(b"GET /users HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        data = b""
        deadline = time.monotonic() + 60
        while True:
            if time.monotonic() > deadline:
                raise SystemExit(f"no complete answer after 60 s: {data!r}")
            readable, _, _ = select.select([s], [], [], 0.02)
            if readable:
                chunk = s.recv(65536)
                if not chunk:
                    return data.decode("latin-1")
                data += chunk
            elif not data and idle:
                total, sockets = descriptors()
                if total >= limit and sockets == 1 + len(idle):
                    idle.pop().close()  # not even accepted: free one descriptor
    finally:
        s.close()


log_file, log_path = tempfile.mkstemp(prefix="rm-descriptor-limit-", suffix=".log")
server = None
idle = []
try:
    server = subprocess.Popen([exe, "serve", folder, "--port", "0"], stdin=subprocess.DEVNULL, stdout=log_file,
                              stderr=log_file, preexec_fn=in_the_child)
    os.close(log_file)
    port = int(wait_for("the server's address", lambda: re.search(r"127\.0\.0\.1:(\d+)", printed())).group(1))
    statuses, refusal = [], ""
    # Bounded, with room for idle connections the server closes meanwhile.
    for i in range(4 * limit):
        open(os.path.join(folder, "changed-%d.txt" % i), "w").close()
        reply = ask()
        statuses.append(reply[9:12])
        if reply[9:12] != "200":
            refusal = reply.split("\r\n\r\n", 1)[-1]
            break
        # The request's connection closed on both sides, then the new idle one accepted.
        holding()
        idle.append(socket.create_connection(("127.0.0.1", port), timeout=60))
        holding()
    while idle:
        idle.pop().close()
    # Every idle connection closed on the server's side too.
    holding()
    after = ask()[9:12]
    print(json.dumps({"statuses": statuses, "refusal": refusal, "after": after}))
finally:
    for s in idle:
        s.close()
    if server is None:
        os.close(log_file)
    else:
        server.terminate()
        try:
            server.wait(30)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
    os.remove(log_path)
