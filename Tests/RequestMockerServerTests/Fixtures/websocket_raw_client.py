# Sends a correct WebSocket handshake for /echo, then the frames given in hex, and prints the
# handshake's status line (and whether the accept key is right), then the opcode, close code and
# reason of the last frame the server sends.
# Usage: websocket_raw_client.py PORT HEX_FRAMES
import socket, sys
client = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=25)
client.sendall(b"GET /echo HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
               b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
received = b""
while b"\r\n\r\n" not in received:
    received += client.recv(4096)
head, _, rest = received.partition(b"\r\n\r\n")
print(head.split(b"\r\n")[0].decode(), b"Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=" in head)
client.sendall(bytes.fromhex(sys.argv[2]))
while True:
    piece = client.recv(4096)
    if not piece:
        break
    rest += piece
# The server's frames, unmasked: the last is its close frame.
frames = []
while rest:
    length = rest[1] & 0x7F
    frames.append((rest[0] & 0x0F, rest[2:2 + length]))
    rest = rest[2 + length:]
opcode, payload = frames[-1]
print(opcode, int.from_bytes(payload[:2], "big"), payload[2:].decode())
