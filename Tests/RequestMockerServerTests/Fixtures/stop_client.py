# Connects, sends HEAD (a request head), and 0.3 s later either sends another request ("input")
# or closes its sending side ("half-close"); then creates the file MARKER, so the test knows it
# acted, and reads until the connection ends or 120 s pass. Prints how it ended (closed, timeout,
# reset) and how many bytes came.
# Usage: stop_client.py PORT HEAD input|half-close MARKER
import socket, sys, time
port, head, then, marker = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
s = socket.create_connection(("127.0.0.1", port))
s.settimeout(120)
s.sendall(head.encode("latin-1"))
time.sleep(0.3)
if then == "input":
    s.sendall(b"GET /next HTTP/1.1\r\nHost: x\r\n\r\n")
else:
    s.shutdown(socket.SHUT_WR)
open(marker, "w").close()
received, ending = 0, "closed"
try:
    while True:
        data = s.recv(65536)
        if not data:
            break
        received += len(data)
except socket.timeout:
    ending = "timeout"
except ConnectionResetError:
    ending = "reset"
print(ending, received)
