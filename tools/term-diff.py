#!/usr/bin/env python3
"""Differential sweep of how transactions end: the same misbehaving clients and servers through Fulcrum and haproxy.

Both proxies run one configuration (an HTTP frontend with short timeouts, deny and tarpit rules, a backend whose
server is this script's origin, one with maxconn 1 for queues, one whose server refuses; a TCP frontend to the same
origin), each logging to a UDP socket of this script with a format of the status, the termination state, the bytes
and the timers. The origin behaves by the request's path (stall before or inside the response, close or reset
there, answer an upload early and close, send more than a client reads...). Each case is a client script (send,
sleep, read, half-close, close, reset; several clients at once for the queue cases) run against both proxies at
the same time; the script compares what the clients received (response bytes, then whether the connection was
still open or closed) and the log lines, timers masked to their sign (-1 or not).

Usage: tools/term-diff.py [--only REGEX] [--port 15100] [--haproxy /usr/sbin/haproxy] [-v]
Differences listed in KNOWN (on purpose, documented in docs/differences.md) print as "known" (-v: in full); the exit
status is 1 when another one is found. The packaged jar must exist (bin/mvn -q -o package -DskipTests).
Ports: --port .. --port+6, --port+21, +22, +24 and +25 (the frontends with client-fin and server-fin). TerminationStatesIT pins the findings of this sweep down.
"""
import os
import re
import socket
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from proxyrun import stop, wait_listening  # noqa: E402

h1diff = __import__("h1-diff")
HOME = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LINGER0 = b"\x01\x00\x00\x00\x00\x00\x00\x00"

KNOWN = {
    "client-rst-waiting": "a client's reset while its request waits ends the transaction at once (CH); haproxy 2.6 "
                          "sees it only when it writes the response (differences.md, Logs)",
    "early-413-then-body": "after an early answer and the server's close the rest of the body is read and dropped "
                           "(----); haproxy 2.6 writes it to the closed connection and logs SD (differences.md)",
    "abortonclose-shut-waiting": "option abortonclose abandons a request whose client closes later than its request "
                                 "came (400, CH); haproxy 2.6 notices only a close in the same read (differences.md)",
    "abortonclose-close-waiting": "as abortonclose-shut-waiting",
    "abortonclose-rst-waiting": "as client-rst-waiting",
    "abortonclose-queue-shut": "as abortonclose-shut-waiting, in a queue (CQ)",
    "abortonclose-queue-close": "as abortonclose-queue-shut",
    "queue-served": "%sc counts a stream the queue has just granted its slot (differences.md, Logs)",
    "tcp-big": "a slow reader's write timeout is seen up to a quarter of the timeout late in mode tcp (differences.md)",
    "tcp-big-close": "as tcp-big",
}

CFG = """global
    log 127.0.0.1:{log} local0
defaults
    mode http
    log global
    timeout connect 1s
    timeout client 1s
    timeout server 1s
    timeout http-request 1s
    timeout queue 1s
    timeout tunnel 1500ms
frontend fe
    bind 127.0.0.1:{port}
    log-format "%ST %tsc %B %HU %Tq/%Tw/%Tc/%Tr/%Ta ac=%ac bc=%bc sc=%sc rc=%rc sq=%sq bq=%bq s=%s"
    http-request deny if {{ path /deny }}
    http-request tarpit if {{ path /tarpit }}
    timeout tarpit 300ms
    use_backend q if {{ path_beg /q/ }}
    use_backend abort if {{ path_beg /a/ }}
    use_backend abortq if {{ path_beg /aq/ }}
    use_backend serverclose if {{ path_beg /sc/ }}
    use_backend retry if {{ path_beg /r/ }}
    use_backend httpclose if {{ path_beg /hc/ }}
    use_backend dead if {{ path /refused }}
    use_backend redisp if {{ path_beg /rd/ }}
    use_backend redisp-all-dead if {{ path_beg /rdd/ }}
    use_backend redisp-l7 if {{ path_beg /rd7/ }}
    default_backend be
backend be
    server s1 127.0.0.1:{origin}
backend q
    timeout server 2s
    server s1 127.0.0.1:{origin} maxconn 1
backend abort
    option abortonclose
    server s1 127.0.0.1:{origin}
backend abortq
    option abortonclose
    timeout server 2s
    server s1 127.0.0.1:{origin} maxconn 1
backend serverclose
    option http-server-close
    server s1 127.0.0.1:{origin}
backend httpclose
    option httpclose
    server s1 127.0.0.1:{origin}
backend retry
    retries 1
    retry-on empty-response response-timeout junk-response 500
    server s1 127.0.0.1:{origin}
backend dead
    retries 2
    server s1 127.0.0.1:1
backend redisp
    balance first
    option redispatch
    retries 2
    server dead 127.0.0.1:1
    server live 127.0.0.1:{origin}
backend redisp-all-dead
    balance roundrobin
    option redispatch 1
    retries 3
    server d1 127.0.0.1:1
    server d2 127.0.0.1:2
backend redisp-l7
    balance first
    option redispatch
    retries 2
    retry-on empty-response 500
    server s1 127.0.0.1:{origin} maxconn 100
    server s2 127.0.0.1:{origin}
frontend fin
    bind 127.0.0.1:{fin}
    log-format "%ST %tsc %B %HU %Tq/%Tw/%Tc/%Tr/%Ta"
    timeout client-fin 300ms
    default_backend fin
backend fin
    timeout server-fin 300ms
    server s1 127.0.0.1:{origin}
frontend tfin
    mode tcp
    bind 127.0.0.1:{tfin}
    log-format "%ts %B %Tw/%Tc/%Tt"
    timeout client-fin 300ms
    default_backend tfin
backend tfin
    mode tcp
    timeout server-fin 300ms
    server s1 127.0.0.1:{origin}
frontend tcp
    mode tcp
    bind 127.0.0.1:{tcp}
    log-format "%ts %B %Tw/%Tc/%Tt"
    default_backend tbe
backend tbe
    mode tcp
    server s1 127.0.0.1:{origin}
"""


# --- the origin: what it does is the request path's (in mode tcp, the first line the client sent) ----------------

def read_head(c):
    buf = b""
    while b"\r\n\r\n" not in buf:
        d = c.recv(4096)
        if not d:
            return buf
        buf += d
    return buf


def reset(c):
    c.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, LINGER0)
    c.close()


def send_big(c, then_sleep):
    try:
        c.sendall(b"x" * 30_000_000)
        time.sleep(then_sleep)
    except OSError:
        pass


OK = b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"
BEHAVIOURS = {
    "ok": lambda c: (c.sendall(OK), time.sleep(0.5)),
    "slow-ok": lambda c: (time.sleep(0.6), c.sendall(OK), time.sleep(0.5)),
    "stall-head": lambda c: time.sleep(3),
    "stall-partial-head": lambda c: (c.sendall(b"HTTP/1.1 200 OK\r\nContent-Le"), time.sleep(3)),
    "stall-body": lambda c: (c.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n0123456789"), time.sleep(3)),
    "stall-chunk": lambda c: (c.sendall(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\na\r\n0123456789\r\n"),
                              time.sleep(3)),
    "close-body": lambda c: (c.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n0123456789"), time.sleep(0.2)),
    "rst-body": lambda c: (c.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n0123456789"), time.sleep(0.2),
                           reset(c)),
    "rst-head": reset,
    "close-head": lambda c: None,
    "partial-head": lambda c: (c.sendall(b"HTTP/1.1 200 OK\r\nContent-Le"), time.sleep(0.2)),
    "close-delim": lambda c: c.sendall(b"HTTP/1.1 200 OK\r\n\r\nabcdef"),
    "close-delim-stall": lambda c: (c.sendall(b"HTTP/1.1 200 OK\r\n\r\nabcdef"), time.sleep(3)),
    "big": lambda c: (c.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 30000000\r\n\r\n"), send_big(c, 0)),
    "early-413": lambda c: (c.sendall(b"HTTP/1.1 413 Too Large\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"),
                            time.sleep(0.3)),
    "read-body": lambda c: (drain(c), time.sleep(0.1)),
    "ws-echo": lambda c: (c.sendall(WS101), echo(c)),
    "ws-stall": lambda c: (c.sendall(WS101), time.sleep(3)),
    "ws-close": lambda c: (c.sendall(WS101 + b"bye"), time.sleep(0.2)),
    "ws-hold": lambda c: (c.sendall(WS101), drain(c), time.sleep(3)),
    "ws-half": lambda c: (c.sendall(WS101 + b"bye"), c.shutdown(socket.SHUT_WR), drain(c), time.sleep(3)),
    "tcp-hold": lambda c: (drain(c), time.sleep(3)),
    "tcp-half": lambda c: (c.sendall(b"hello"), c.shutdown(socket.SHUT_WR), drain(c), time.sleep(3)),
    "no-read": lambda c: time.sleep(4),
    "junk": lambda c: (c.sendall(b"garbage\r\n\r\n"), time.sleep(0.2)),
    "e500": lambda c: (c.sendall(b"HTTP/1.1 500 Oops\r\nContent-Length: 2\r\n\r\nno"), time.sleep(0.5)),
    "read-then-ok": lambda c: (c.recv(1 << 16), read_until(c, (b"end", b"end\r\n0\r\n\r\n")), c.sendall(OK), time.sleep(0.5)),
    "continue": lambda c: (c.sendall(b"HTTP/1.1 100 Continue\r\n\r\n"), c.recv(100), c.sendall(OK), time.sleep(0.5)),
    "tcp-echo-close": lambda c: c.sendall(b"hello"),
    "tcp-stall": lambda c: time.sleep(3),
    "tcp-rst": reset,
    "tcp-wait": lambda c: drain(c),
    "tcp-big": lambda c: send_big(c, 5),
    "tcp-big-close": lambda c: send_big(c, 0),
}


WS101 = (b"HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n"
         b"Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n\r\n")
WS_FIELDS = "Connection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"


def echo(c):
    while True:
        d = c.recv(4096)
        if not d:
            return
        c.sendall(d)


def read_until(c, tail):
    got = b""
    while not got.endswith(tail):
        d = c.recv(4096)
        if not d:
            return
        got += d


def drain(c):
    while c.recv(4096):
        pass


def origin_conn(c):
    try:
        head = read_head(c)
        if head:
            first = head.split(b"\r\n")[0].decode("latin-1")
            path = first.split(" ")[1] if " " in first else "/"
            behaviour = path.lstrip("/")
            behaviour = re.sub(r"^(q|a|aq|sc|hc|r|rd|rdd|rd7)/", "", behaviour)
            BEHAVIOURS.get(behaviour, lambda s: s.sendall(b"HTTP/1.1 404 NF\r\nContent-Length: 0\r\n\r\n"))(c)
    except OSError:
        pass
    finally:
        try:
            c.close()
        except OSError:
            pass


def origin(port):
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind(("127.0.0.1", port))
    s.listen(100)
    while True:
        c, _ = s.accept()
        threading.Thread(target=origin_conn, args=(c,), daemon=True).start()


# --- the clients ---------------------------------------------------------------------------------------------------

def client(port, script):
    """Runs the steps of script: ('send', bytes), ('sleep', s), ('read', s), ('shut',), ('close',), ('rst',)."""
    c = socket.create_connection(("127.0.0.1", port))
    got = b""
    try:
        for step in script:
            if step[0] == "send":
                try:
                    c.sendall(step[1])
                except OSError as e:
                    return got + ("<send: %s>" % e.__class__.__name__).encode()
            elif step[0] == "upload":  # (bytes, seconds): as much as the proxy takes within the time
                c.settimeout(step[2])
                try:
                    c.sendall(b"u" * step[1])
                except (socket.timeout, OSError):
                    pass
            elif step[0] == "sleep":
                time.sleep(step[1])
            elif step[0] == "shut":
                c.shutdown(socket.SHUT_WR)
            elif step[0] == "rst":
                reset(c)
                return got
            elif step[0] == "close":
                c.close()
                return got
            elif step[0] == "read":
                c.settimeout(step[1])
                end = time.time() + step[1]
                try:
                    while time.time() < end:
                        d = c.recv(65536)
                        if not d:
                            return got + b"<EOF>"
                        got += d
                    got += b"<open>"
                except socket.timeout:
                    got += b"<open>"
                except OSError as e:
                    got += ("<%s>" % e.__class__.__name__).encode()
    finally:
        try:
            c.close()
        except OSError:
            pass
    return got


def req(path, fields=""):
    return ("GET /%s HTTP/1.1\r\nHost: a\r\n%s\r\n" % (path, fields)).encode()


def post(path, length, sent):
    return b"POST /%s HTTP/1.1\r\nHost: a\r\nContent-Length: %d\r\n\r\n%s" % (path.encode(), length, sent)


def chunked(path, sent):
    return b"POST /%s HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n%s" % (path.encode(), sent)


# (haproxy 2.6.12 aborts on "a bogus STREAM spinning" when a server answers an upload early and keeps its connection
# while the client stalls: no such case here)
CASES = [
    ("ok", [("send", req("ok")), ("read", 1.5)]),
    ("stall-head", [("send", req("stall-head")), ("read", 2.5)]),
    ("stall-body", [("send", req("stall-body")), ("read", 2.5)]),
    ("stall-chunk", [("send", req("stall-chunk")), ("read", 2.5)]),
    ("close-body", [("send", req("close-body")), ("read", 1.5)]),
    ("rst-body", [("send", req("rst-body")), ("read", 1.5)]),
    ("rst-head", [("send", req("rst-head")), ("read", 1.5)]),
    ("close-head", [("send", req("close-head")), ("read", 1.5)]),
    ("partial-head", [("send", req("partial-head")), ("read", 1.5)]),
    ("stall-partial-head", [("send", req("stall-partial-head")), ("read", 2.5)]),
    ("close-delim", [("send", req("close-delim")), ("read", 1.5)]),
    ("close-delim-stall", [("send", req("close-delim-stall")), ("read", 2.5)]),
    ("client-close-waiting", [("send", req("slow-ok")), ("sleep", 0.2), ("close",)]),
    ("client-shut-waiting", [("send", req("slow-ok")), ("sleep", 0.2), ("shut",), ("read", 1.5)]),
    ("client-rst-waiting", [("send", req("slow-ok")), ("sleep", 0.2), ("rst",)]),
    ("client-body-stall", [("send", post("read-body", 10, b"12345")), ("read", 2.5)]),
    ("client-body-close", [("send", post("read-body", 10, b"12345")), ("sleep", 0.3), ("close",)]),
    ("client-body-rst", [("send", post("read-body", 10, b"12345")), ("sleep", 0.3), ("rst",)]),
    ("client-body-stall-2s", [("send", post("q/read-body", 10, b"12345")), ("read", 2.5)]),
    ("client-body-trickle", [("send", post("read-then-ok", 9, b"1"))] + [("sleep", 0.5), ("send", b"1")] * 5
     + [("send", b"end"), ("read", 0.7)]),
    ("client-body-trickle-chunked", [("send", chunked("read-then-ok", b"1\r\n1\r\n"))]
     + [("sleep", 0.5), ("send", b"1\r\n1\r\n")] * 5 + [("send", b"3\r\nend\r\n0\r\n\r\n"), ("read", 0.7)]),
    ("client-body-trickle-chunked-100", [("send", chunked("read-then-ok", b"64\r\n" + b"1" * 100 + b"\r\n"))]
     + [("sleep", 0.5), ("send", b"64\r\n" + b"1" * 100 + b"\r\n")] * 5 + [("send", b"3\r\nend\r\n0\r\n\r\n"),
                                                                       ("read", 0.7)]),
    ("client-chunk-stall", [("send", chunked("read-body", b"5\r\n12345\r\n")), ("read", 2.5)]),
    ("early-413", [("send", post("early-413", 100000, b"12345")), ("read", 2.5)]),
    ("early-413-then-body", [("send", post("early-413", 100000, b"12345")), ("sleep", 0.5),
                             ("send", b"x" * 99995), ("read", 2.5)]),
    ("early-413-small", [("send", post("early-413", 10, b"12345")), ("sleep", 0.5), ("send", b"x" * 5),
                         ("read", 2.5)]),
    ("early-413-close", [("send", post("early-413", 100000, b"12345")), ("sleep", 0.5), ("close",)]),
    ("client-no-read-big", [("send", req("big")), ("sleep", 2.5), ("close",)]),
    ("client-partial-head-close", [("send", b"GET / HTTP/1.1\r\nHo"), ("sleep", 0.3), ("close",)]),
    ("client-partial-head-stall", [("send", b"GET / HTTP/1.1\r\nHo"), ("read", 2.0)]),
    ("client-idle", [("read", 2.0)]),
    ("client-idle-close", [("sleep", 0.2), ("close",)]),
    ("deny", [("send", req("deny")), ("read", 0.7)]),
    ("tarpit", [("send", req("tarpit")), ("read", 0.8)]),
    ("tarpit-close", [("send", req("tarpit")), ("sleep", 0.1), ("close",)]),
    ("http10", [("send", b"GET /ok HTTP/1.0\r\n\r\n"), ("read", 1.5)]),
    ("http10-keepalive", [("send", b"GET /ok HTTP/1.0\r\nConnection: keep-alive\r\n\r\n"), ("read", 0.7)]),
    ("http10-stall-body", [("send", b"GET /stall-body HTTP/1.0\r\n\r\n"), ("read", 2.5)]),
    ("http10-close-delim", [("send", b"GET /close-delim HTTP/1.0\r\n\r\n"), ("read", 1.5)]),
    ("connection-close", [("send", req("ok", "Connection: close\r\n")), ("read", 1.5)]),
    ("connection-close-stall", [("send", req("stall-head", "Connection: close\r\n")), ("read", 2.5)]),
    ("retry-empty", [("send", req("r/close-head")), ("read", 1.5)]),
    ("retry-reset", [("send", req("r/rst-head")), ("read", 1.5)]),
    ("retry-timeout", [("send", req("r/stall-head")), ("read", 3.0)]),
    ("retry-junk", [("send", req("r/junk")), ("read", 1.5)]),
    ("retry-500", [("send", req("r/e500")), ("read", 1.5)]),
    ("retry-partial-head", [("send", req("r/partial-head")), ("read", 1.5)]),
    ("retry-body-cut", [("send", req("r/close-body")), ("read", 1.5)]),
    ("redispatch", [("send", req("rd/ok")), ("read", 2.5)]),
    ("redispatch-all-dead", [("send", req("rdd/ok")), ("read", 4.5)]),
    ("redispatch-l7-500", [("send", req("rd7/e500")), ("read", 1.5)]),
    ("redispatch-l7-empty", [("send", req("rd7/close-head")), ("read", 1.5)]),
    ("ka-then-idle", [("send", req("ok")), ("read", 2.0)]),
    ("ka-pipelined", [("send", req("ok") + req("ok")), ("read", 2.0)]),
    ("shut-before-response", [("send", req("stall-head")), ("sleep", 0.3), ("shut",), ("read", 2.0)]),
    ("queue-served", [[("send", req("q/slow-ok")), ("read", 2.0)], [("send", req("q/slow-ok")), ("read", 2.0)]]),
    ("queue-timeout", [[("send", req("q/stall-head")), ("read", 2.5)], [("send", req("q/ok")), ("read", 2.5)]]),
    ("queue-client-close", [[("send", req("q/stall-head")), ("read", 2.5)],
                            [("send", req("q/ok")), ("sleep", 0.3), ("close",)]]),
    ("queue-client-shut", [[("send", req("q/stall-head")), ("read", 2.5)],
                           [("send", req("q/ok")), ("sleep", 0.3), ("shut",), ("read", 2.0)]]),
    ("refused", [("send", req("refused")), ("read", 2.5)]),
    ("server-close-pipelined", [("send", req("sc/ok") + req("sc/ok")), ("read", 1.5)]),
    ("server-close-shut", [("send", req("sc/slow-ok")), ("sleep", 0.2), ("shut",), ("read", 1.5)]),
    ("httpclose", [("send", req("hc/ok") + req("hc/ok")), ("read", 1.5)]),
    ("httpclose-server-stall", [("send", req("hc/stall-body")), ("read", 2.5)]),
    ("ws-echo-client-closes", [("send", req("ws-echo", WS_FIELDS)), ("sleep", 0.2), ("send", b"ping"), ("read", 0.5),
                               ("close",)]),
    ("ws-echo-client-shuts", [("send", req("ws-echo", WS_FIELDS)), ("sleep", 0.2), ("send", b"ping"), ("shut",),
                              ("read", 1.0)]),
    ("ws-tunnel-timeout", [("send", req("ws-stall", WS_FIELDS)), ("read", 2.5)]),
    ("ws-server-closes", [("send", req("ws-close", WS_FIELDS)), ("read", 1.5)]),
    ("ws-client-rst", [("send", req("ws-echo", WS_FIELDS)), ("sleep", 0.3), ("rst",)]),
    ("expect-continue", [("send", post("continue", 4, b"").replace(b"\r\n\r\n", b"\r\nExpect: 100-continue\r\n\r\n")),
                         ("read", 0.3), ("send", b"body"), ("read", 0.6)]),
    ("server-does-not-read", [("send", post("no-read", 30_000_000, b"")), ("upload", 30_000_000, 3.0),
                              ("read", 1.0)]),
    ("server-does-not-read-2s", [("send", post("q/no-read", 30_000_000, b"")), ("upload", 30_000_000, 3.0),
                                 ("read", 1.0)]),
    ("abortonclose-shut-waiting", [("send", req("a/slow-ok")), ("sleep", 0.2), ("shut",), ("read", 1.5)]),
    ("abortonclose-close-waiting", [("send", req("a/slow-ok")), ("sleep", 0.2), ("close",)]),
    ("abortonclose-rst-waiting", [("send", req("a/slow-ok")), ("sleep", 0.2), ("rst",)]),
    ("abortonclose-shut-body", [("send", req("a/slow-ok")), ("sleep", 0.8), ("shut",), ("read", 1.5)]),
    ("abortonclose-body-shut", [("send", post("a/read-body", 10, b"12345")), ("sleep", 0.3), ("shut",), ("read", 1.5)]),
    ("abortonclose-queue-shut", [[("send", req("aq/stall-head")), ("read", 2.5)],
                                 [("send", req("aq/ok")), ("sleep", 0.3), ("shut",), ("read", 2.0)]]),
    ("abortonclose-queue-close", [[("send", req("aq/stall-head")), ("read", 2.5)],
                                  [("send", req("aq/ok")), ("sleep", 0.3), ("close",)]]),
]
TCP_CASES = [
    ("tcp-echo-close", [("send", req("tcp-echo-close")), ("read", 1.5)]),
    ("tcp-client-close", [("send", req("tcp-wait")), ("sleep", 0.2), ("close",)]),
    ("tcp-client-shut", [("send", req("tcp-wait")), ("sleep", 0.2), ("shut",), ("read", 1.5)]),
    ("tcp-stall", [("send", req("tcp-stall")), ("read", 2.5)]),
    ("tcp-rst", [("send", req("tcp-rst")), ("read", 1.5)]),
    ("tcp-client-rst", [("send", req("tcp-wait")), ("sleep", 0.2), ("rst",)]),
    ("tcp-client-idle", [("read", 2.5)]),
    ("tcp-big", [("send", req("tcp-big")), ("sleep", 4), ("close",)]),
    ("tcp-big-close", [("send", req("tcp-big-close")), ("sleep", 4), ("close",)]),
]

# timeout client-fin and server-fin (300 ms; tunnel 1.5 s): a side that closed while the other stays
FIN_CASES = [
    ("fin-ws-client-shuts", [("send", req("ws-hold", WS_FIELDS)), ("sleep", 0.2), ("shut",), ("read", 2.5)]),
    ("fin-ws-server-half-closes", [("send", req("ws-half", WS_FIELDS)), ("read", 2.5)]),
    ("fin-ws-both-stay", [("send", req("ws-hold", WS_FIELDS)), ("read", 2.5)]),
    ("fin-http-client-shuts-waiting", [("send", req("slow-ok")), ("sleep", 0.2), ("shut",), ("read", 2.0)]),
    ("fin-http-close-delim-stall", [("send", req("close-delim-stall")), ("read", 2.5)]),
    ("fin-http-ka-idle", [("send", req("ok")), ("read", 2.0)]),
]
TFIN_CASES = [
    ("tfin-client-shuts", [("send", req("tcp-hold")), ("sleep", 0.2), ("shut",), ("read", 2.5)]),
    ("tfin-server-half-closes", [("send", req("tcp-half")), ("read", 2.5)]),
    ("tfin-both-stay", [("send", req("tcp-stall")), ("read", 2.5)]),
]


class Proxy:
    """One proxy under test, its log lines as they arrive."""

    def __init__(self, name, cmd, base, origin_port, tmp):
        self.name = name
        self.http, self.tcp, log = base, base + 1, base + 2
        self.fin, self.tfin = base + 20, base + 21
        self.lines = []
        sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        sock.bind(("127.0.0.1", log))
        threading.Thread(target=self.receive, args=(sock,), daemon=True).start()
        cfg = os.path.join(tmp, name + ".cfg")
        with open(cfg, "w") as f:
            f.write(CFG.format(log=log, port=self.http, tcp=self.tcp, origin=origin_port, fin=self.fin, tfin=self.tfin))
        self.out = open(os.path.join(tmp, name + ".out"), "w")
        self.proc = subprocess.Popen(cmd + ["-db", "-f", cfg], stdout=self.out, stderr=subprocess.STDOUT)
        wait_listening(self.tcp, self.proc)

    def receive(self, sock):
        while True:
            m = re.search(r"\]: (.*)$", sock.recv(65535).decode("latin-1").strip())
            if m:
                self.lines.append(m.group(1))

    def run(self, script, frontend):
        port = {"http": self.http, "tcp": self.tcp, "fin": self.fin, "tfin": self.tfin}[frontend]
        first = len(self.lines)
        if isinstance(script[0], list):  # several clients, 100 ms apart
            outs = [b""] * len(script)

            def one(i, steps):
                time.sleep(0.1 * i)
                outs[i] = client(port, steps)
            ts = [threading.Thread(target=one, args=(i, s)) for i, s in enumerate(script)]
            [t.start() for t in ts]
            [t.join() for t in ts]
            got = b"|".join(outs)
        else:
            got = client(port, script)
        time.sleep(1.3)  # (the last line of a transaction the client left)
        return got, self.lines[first:]

    def stop(self):
        stop(self.proc, self.out)


def norm_log(line, name):
    # timers to their sign; the bytes a client that stopped reading got depend on the socket buffers
    line = re.sub(r"-?\d+(/-?\d+){2,4}", lambda m: re.sub(r"(?<![-\d])\d+", "N", m.group(0)), line)
    if "big" in name:
        line = re.sub(r"^(\S+ \S+) \d+", r"\1 B", line)
    return line


def norm_got(got):
    got = re.sub(rb"\r\nDate: [^\r]*", b"", got)
    return got[:400] + (b"...(%d bytes)" % len(got) if len(got) > 400 else b"")


def main():
    a = h1diff.arguments(15100)
    origin_port = a.port
    threading.Thread(target=origin, args=(origin_port,), daemon=True).start()
    tmp = tempfile.mkdtemp(prefix="termdiff-")
    f = Proxy("fulcrum", [os.path.join(HOME, "bin/fulcrum")], a.port + 1, origin_port, tmp)
    h = Proxy("haproxy", [a.haproxy], a.port + 4, origin_port, tmp)
    counts = {"same": 0, "known": 0, "differ": 0}
    try:
        for name, script, frontend in ([(n, s, "http") for n, s in CASES] + [(n, s, "tcp") for n, s in TCP_CASES]
                                       + [(n, s, "fin") for n, s in FIN_CASES] + [(n, s, "tfin") for n, s in TFIN_CASES]):
            if a.only and not re.search(a.only, name):
                continue
            res = {}
            ts = [threading.Thread(target=lambda p=p: res.__setitem__(p.name, p.run(script, frontend))) for p in (f, h)]
            [t.start() for t in ts]
            [t.join() for t in ts]
            (fgot, flog), (hgot, hlog) = res["fulcrum"], res["haproxy"]
            diffs = []
            if norm_got(fgot) != norm_got(hgot):
                diffs.append(("client", norm_got(fgot), norm_got(hgot)))
            if [norm_log(x, name) for x in flog] != [norm_log(x, name) for x in hlog]:
                diffs.append(("log", flog, hlog))
            counts[h1diff.report(name, diffs, KNOWN, a.v, hlog)] += 1
    finally:
        f.stop()
        h.stop()
    print("%d same, %d known, %d differ (configurations and outputs in %s)" % (
        counts["same"], counts["known"], counts["differ"], tmp))
    return 1 if counts["differ"] else 0


if __name__ == "__main__":
    sys.exit(main())
