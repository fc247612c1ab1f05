#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Misbehaving HTTP clients for tests/unit/http.sh (standard library only).

  httpclients.py hold PORT IDLE HALF SLOW NOREAD SECONDS
      open IDLE connections that send nothing, HALF that send part of a
      request and stop, SLOW that send a request one byte every half
      second, NOREAD that send a whole request and never read the answer;
      print "ready N" once all are connected, hold them SECONDS (or until
      killed), then print how many the server had closed.
  httpclients.py raw PORT
      send standard input as it is, print the response's status line
      (or "closed" when the server closes without a response).
  httpclients.py closed PORT SECONDS
      connect, send nothing, print how many seconds until the server
      closed the connection (or "open" after SECONDS).
"""
import socket
import sys
import time


def connect(port, rcvbuf=0):
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    if rcvbuf:	# before connect(), so that the window stays small
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    s.settimeout(5)
    s.connect(("127.0.0.1", port))
    s.settimeout(None)
    return s


def closed_by_peer(s):
    s.setblocking(False)
    try:
        return s.recv(1, socket.MSG_PEEK) == b""
    except BlockingIOError:
        return False
    except OSError:
        return True
    finally:
        s.setblocking(True)


def hold(port, idle, half, slow, noread, seconds):
    idles = [connect(port) for _ in range(idle)]
    halves = []
    for _ in range(half):
        s = connect(port)
        s.sendall(b"GET /metrics HTTP/1.1\r\nHost: x\r\nAccept: te")
        halves.append(s)
    slows = [[connect(port), b"GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n", 0]
             for _ in range(slow)]
    noreads = []
    for _ in range(noread):
        s = connect(port, 4096)
        s.sendall(b"GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n")
        noreads.append(s)
    print("ready", idle + half + slow + noread, flush=True)
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        for st in slows:
            s, req, i = st
            if i < len(req) - 1:	# never the last byte: always half-sent
                try:
                    s.sendall(req[i:i + 1])
                except OSError:
                    pass
                st[2] = i + 1
        time.sleep(0.5)
    everyone = idles + halves + [st[0] for st in slows] + noreads
    print("closed", sum(closed_by_peer(s) for s in everyone), flush=True)


def raw(port):
    s = connect(port)
    s.settimeout(5)
    s.sendall(sys.stdin.buffer.read())
    data = b""
    try:
        while b"\r\n" not in data:
            chunk = s.recv(4096)
            if not chunk:
                break
            data += chunk
    except OSError:
        pass
    line = data.split(b"\r\n", 1)[0].decode("latin-1")
    print(line if line else "closed")


def closed(port, seconds):
    s = connect(port)
    s.settimeout(seconds)
    start = time.monotonic()
    try:
        s.recv(1)
        print("%.1f" % (time.monotonic() - start))
    except socket.timeout:
        print("open")
    except OSError:
        print("%.1f" % (time.monotonic() - start))


def main():
    cmd, port = sys.argv[1], int(sys.argv[2])
    if cmd == "hold":
        hold(port, *(int(a) for a in sys.argv[3:7]), float(sys.argv[7]))
    elif cmd == "raw":
        raw(port)
    elif cmd == "closed":
        closed(port, float(sys.argv[3]))
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
