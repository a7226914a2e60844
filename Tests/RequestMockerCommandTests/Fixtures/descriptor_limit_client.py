# Starts `request-mocker serve FOLDER` under a file-descriptor limit, then holds idle connections
# open one more at a time, changing the folder before each request so that it is listed again,
# until a request finds no descriptor for the listing or the file. Then it lets every connection
# go and asks once more. Prints the statuses, the refusal's body and the last status as JSON.
# Usage: descriptor_limit_client.py EXECUTABLE FOLDER LIMIT
import json, os, re, resource, socket, subprocess, sys, time
exe, folder, limit = sys.argv[1], sys.argv[2], int(sys.argv[3])
def lower():
    resource.setrlimit(resource.RLIMIT_NOFILE, (limit, limit))
server = subprocess.Popen([exe, "serve", folder, "--port", "0"], stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, preexec_fn=lower, text=True)
port = int(re.search(r"127\.0\.0\.1:(\d+)", server.stdout.readline()).group(1))
def ask(idle):
    s = socket.create_connection(("127.0.0.1", port))
    s.sendall(b"GET /users HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    s.settimeout(1)
    data = b""
    while True:
        try:
            chunk = s.recv(65536)
        except socket.timeout:
            if not idle:
                break
            idle.pop().close()  # not even accepted: free one descriptor
            continue
        if not chunk:
            break
        data += chunk
    s.close()
    return data.decode("latin-1")
idle, statuses, refusal = [], [], ""
for i in range(limit):
    open(os.path.join(folder, "changed-%d.txt" % i), "w").close()
    reply = ask(idle)
    statuses.append(reply[9:12])
    if reply[9:12] != "200":
        refusal = reply.split("\r\n\r\n", 1)[-1]
        break
    idle.append(socket.create_connection(("127.0.0.1", port)))
    time.sleep(0.05)
for s in idle:
    s.close()
time.sleep(0.3)
after = ask([])[9:12]
server.terminate()
server.wait()
print(json.dumps({"statuses": statuses, "refusal": refusal, "after": after}))
