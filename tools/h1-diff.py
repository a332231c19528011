#!/usr/bin/env python3
"""Differential HTTP/1 conformance sweep: the same raw bytes through Fulcrum and the real haproxy.

Each proxy runs the same configuration (mode http, option httplog to a UDP log target, a stats socket, one
backend whose server is a raw capturing TCP server of this script that answers each request with the case's
fixed response). For each case the script sends the request bytes on a fresh client connection and compares:

  client  the status lines the client got, and the response heads (Date-like values are not involved: the
          fixed responses have none)
  kept    whether the client connection was still open a moment after the last response
  server  the bytes the server received, connection by connection (request lines, fields in order, framing)
  log     the httplog lines, with timers, dates and ports blanked
  errors  whether `show errors` got a new capture

Usage: tools/h1-diff.py [--only REGEX] [--port 21000] [--haproxy /usr/sbin/haproxy] [-v]
Differences listed in KNOWN (on purpose, documented) print as "known" (-v: in full); the exit status is 1 when
another one is found.
The packaged jar must exist (bin/mvn -q -o package -DskipTests). Ports: --port .. --port+9.
A difference Fulcrum makes on purpose is listed in docs/http1-strictness.md or docs/differences.md; the
integration tests (H1ConformanceIT) pin the findings of the sweep down.
"""
import argparse
import collections
import os
import re
import select
import socket
import ssl
import subprocess
import sys
import tempfile
import threading
import time

from proxyrun import stop, wait_listening

HERE = os.path.dirname(os.path.abspath(__file__))
HOME = os.path.dirname(HERE)

OK = b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"


def case(name, req, resp=OK, opts=(), close_after=False, parts=None):
    """parts: the request sent in several writes, 300 ms apart (req is then their concatenation)."""
    if parts:
        req = b"".join(parts)
    return dict(name=name, req=req, resp=resp, opts=tuple(opts), close_after=close_after, parts=parts)


def get(target="/", version="HTTP/1.1", fields="Host: a\r\n", method="GET"):
    return f"{method} {target} {version}\r\n{fields}\r\n".encode("latin-1")


WS_KEY = "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
WS_REQ = get(fields="Host: a\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n" + WS_KEY)
WS101 = b"HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n\r\n"
AIR = "option accept-invalid-http-request"
AIS = "option accept-invalid-http-response"
# (%ST: without a field known at the end only, haproxy 2.6 sends the line twice, at the start and at the end)
LF = 'log-format "%r|%HM|%HU|%HP|%HPO|%HQ|%HV|%ST"'

CASES = [
    # request lines
    case("origin", get()),
    case("absolute-form", get("http://a/x")),
    case("absolute-form-other-host", get("http://b/x")),
    case("absolute-form-https-port", get("https://a:443/x", fields="Host: a:443\r\n")),
    case("absolute-form-http-port", get("http://a:80/x", fields="Host: a:80\r\n")),
    case("absolute-form-http-443", get("http://a:443/x", fields="Host: a:443\r\n")),
    case("absolute-form-empty-port", get("http://a:/x", fields="Host: a:\r\n")),
    case("absolute-form-host-differs-port", get("http://a:80/x", fields="Host: a\r\n")),
    case("absolute-form-upper-scheme", get("HTTP://A/x", fields="Host: A\r\n")),
    case("origin-host-port-80", get("/x", fields="Host: a:80\r\n")),
    case("connect-80", b"CONNECT a:80 HTTP/1.1\r\nHost: a:80\r\n\r\n", resp=b"HTTP/1.1 200 OK\r\n\r\n"),
    case("connect-8080", b"CONNECT a:8080 HTTP/1.1\r\nHost: a:8080\r\n\r\n", resp=b"HTTP/1.1 200 OK\r\n\r\n"),
    case("connect-host-differs", b"CONNECT a:443 HTTP/1.1\r\nHost: a\r\n\r\n", resp=b"HTTP/1.1 200 OK\r\n\r\n"),
    case("connect-ipv6", b"CONNECT [::1]:443 HTTP/1.1\r\nHost: [::1]:443\r\n\r\n", resp=b"HTTP/1.1 200 OK\r\n\r\n"),
    case("absolute-form-ipv6-port", get("http://[::1]:80/x", fields="Host: [::1]:80\r\n")),
    case("absolute-form-no-path-port", get("http://a:80", fields="Host: a:80\r\n")),
    case("absolute-form-query-port", get("http://a:80?q", fields="Host: a:80\r\n")),
    case("connect", b"CONNECT a:443 HTTP/1.1\r\nHost: a:443\r\n\r\n",
         resp=b"HTTP/1.1 200 Connection established\r\n\r\n"),
    case("connect-no-port", b"CONNECT a HTTP/1.1\r\nHost: a\r\n\r\n"),
    case("options-asterisk", get("*", method="OPTIONS")),
    case("get-asterisk", get("*")),
    case("http10", get(version="HTTP/1.0", fields="")),
    case("http10-keepalive", get(version="HTTP/1.0", fields="Connection: keep-alive\r\n")),
    case("http10-host", get(version="HTTP/1.0")),
    case("http11-close", get(fields="Host: a\r\nConnection: close\r\n")),
    case("lowercase-method", get(method="get")),
    case("unknown-method", get(method="FOO")),
    case("method-with-dash", get(method="M-SEARCH")),
    case("long-uri-ok", get("/" + "a" * 8000)),
    case("long-uri-over", get("/" + "a" * 16000)),
    case("double-space", b"GET  /  HTTP/1.1\r\nHost: a\r\n\r\n"),
    case("tab-separators", b"GET\t/\tHTTP/1.1\r\nHost: a\r\n\r\n"),
    case("trailing-space-version", b"GET / HTTP/1.1 \r\nHost: a\r\n\r\n"),
    case("space-in-uri", b"GET /a b HTTP/1.1\r\nHost: a\r\n\r\n"),
    case("pct-encoding", get("/a%20b%2Fc?x=%41")),
    case("bad-pct", get("/a%zz")),
    case("fragment", get("/a#frag")),
    case("fragment-air", get("/a#frag"), opts=[AIR]),
    case("query-only", get("/?")),
    case("no-version", b"GET /\r\nHost: a\r\n\r\n"),
    case("http09-air", b"GET /\r\n", opts=[AIR]),
    case("version-lowercase", get(version="http/1.1")),
    case("version-12", get(version="HTTP/1.2")),
    case("version-20", get(version="HTTP/2.0")),
    case("version-19", get(version="HTTP/1.9")),
    case("version-lowercase-air", get(version="http/1.1"), opts=[AIR]),
    case("version-other-proto-air", get(version="RTSP/1.0"), opts=[AIR]),
    case("version-two-digits-air", get(version="HTTP/1.10"), opts=[AIR]),
    case("version-12-fields", get("http://a/x?q=1", version="HTTP/1.2"), opts=[LF]),
    case("version-10-fields", get("/x?q", version="HTTP/1.0", fields=""), opts=[LF]),
    case("version-lowercase-fields-air", get("/x", version="http/1.1"), opts=[AIR, LF]),
    case("leading-crlf", b"\r\n\r\nGET / HTTP/1.1\r\nHost: a\r\n\r\n"),
    case("leading-lf", b"\n\r\n\nGET / HTTP/1.1\r\nHost: a\r\n\r\n"),
    case("high-bytes-uri", b"GET /\xc3\xa9 HTTP/1.1\r\nHost: a\r\n\r\n"),
    case("high-bytes-uri-air", b"GET /\xc3\xa9 HTTP/1.1\r\nHost: a\r\n\r\n", opts=[AIR]),
    # header fields
    case("empty-value", get(fields="Host: a\r\nX-E:\r\n")),
    case("empty-value-space", get(fields="Host: a\r\nX-E: \r\n")),
    case("trailing-ws", get(fields="Host: a\r\nX-T: v \t \r\n")),
    case("leading-ws", get(fields="Host: a\r\nX-T:    v\r\n")),
    case("no-space-after-colon", get(fields="Host: a\r\nX-T:v\r\n")),
    case("mixed-case-names", get(fields="HoSt: a\r\nX-MiXeD: v\r\n")),
    case("field-order", get(fields="Host: a\r\nB: 1\r\nA: 2\r\nB: 3\r\n")),
    case("dup-host-same", get(fields="Host: a\r\nHost: a\r\n")),
    case("dup-host-diff", get(fields="Host: a\r\nHost: b\r\n")),
    case("no-host-11", get(fields="")),
    case("empty-host", get(fields="Host:\r\n")),
    case("host-port", get(fields="Host: a:8080\r\n")),
    case("space-before-colon", get(fields="Host: a\r\nX-A : b\r\n")),
    case("space-before-colon-air", get(fields="Host: a\r\nX-A : b\r\n"), opts=[AIR]),
    case("bad-name-char", get(fields="Host: a\r\nX(A): b\r\n")),
    case("bad-name-char-air", get(fields="Host: a\r\nX(A): b\r\n"), opts=[AIR]),
    case("underscore-name", get(fields="Host: a\r\nX_A: b\r\n")),
    case("obs-fold", get(fields="Host: a\r\nX-F: a\r\n b\r\n")),
    case("bare-lf", b"GET / HTTP/1.1\nHost: a\n\n"),
    case("ctl-in-value", get(fields="Host: a\r\nX-C: a\x01b\r\n")),
    case("del-in-value", get(fields="Host: a\r\nX-C: a\x7fb\r\n")),
    case("obs-text-value", get(fields="Host: a\r\nX-C: \xe9t\xe9\r\n")),
    case("cl-post", b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\nhello"),
    case("cl-zero", b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 0\r\n\r\n"),
    case("cl-leading-zeros", b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 005\r\n\r\nhello"),
    case("cl-dup-same", b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\nContent-Length: 5\r\n\r\nhello"),
    case("cl-list-same", b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 5, 5\r\n\r\nhello"),
    case("cl-dup-diff", b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nhello!"),
    case("cl-negative", b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: -1\r\n\r\n"),
    case("cl-plus", b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: +5\r\n\r\nhello"),
    case("cl-space-inside", b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 1 2\r\n\r\n"),
    case("cl-huge", b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 99999999999999999999\r\n\r\n"),
    case("cl-get-body", b"GET / HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\n\r\nabc"),
    case("te-chunked", b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n"),
    case("te-gzip-chunked", b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: gzip, chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n"),
    case("te-chunked-gzip", b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked, gzip\r\n\r\n5\r\nhello\r\n0\r\n\r\n"),
    case("te-two-fields", b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n"),
    case("te-chunked-twice", b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked, chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n"),
    case("te-uppercase", b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: CHUNKED\r\n\r\n5\r\nhello\r\n0\r\n\r\n"),
    case("te-identity", b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: identity\r\n\r\n"),
    case("te-and-cl", b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n"),
    case("te-http10", b"POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n"),
    case("te-trailers", get(fields="Host: a\r\nTE: trailers\r\n")),
    case("te-gzip-trailers", get(fields="Host: a\r\nTE: gzip, trailers;q=1\r\n")),
    case("te-other", get(fields="Host: a\r\nTE: deflate\r\n")),
    case("connection-token", get(fields="Host: a\r\nConnection: x-foo\r\nX-Foo: 1\r\nX-Bar: 2\r\n")),
    case("connection-keepalive-11", get(fields="Host: a\r\nConnection: keep-alive\r\n")),
    case("connection-close-upper", get(fields="Host: a\r\nConnection: CLOSE\r\n")),
    case("connection-list", get(fields="Host: a\r\nConnection: keep-alive, close\r\n")),
    case("keep-alive-field", get(fields="Host: a\r\nKeep-Alive: timeout=5\r\n")),
    case("proxy-connection", get(fields="Host: a\r\nProxy-Connection: keep-alive\r\n")),
    case("expect-100", b"POST / HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\nContent-Length: 5\r\n\r\nhello"),
    case("expect-100-upper", b"POST / HTTP/1.1\r\nHost: a\r\nExpect: 100-CONTINUE\r\nContent-Length: 5\r\n\r\nhello"),
    case("expect-other", b"POST / HTTP/1.1\r\nHost: a\r\nExpect: foo\r\nContent-Length: 5\r\n\r\nhello"),
    case("expect-100-http10", b"POST / HTTP/1.0\r\nExpect: 100-continue\r\nContent-Length: 5\r\n\r\nhello"),
    case("upgrade-no-connection", get(fields="Host: a\r\nUpgrade: websocket\r\n")),
    case("upgrade-h2c", get(fields="Host: a\r\nConnection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\nHTTP2-Settings: AAMAAABkAAQAAP__\r\n")),
    case("websocket", get(fields="Host: a\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"),
         resp=b"HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n\r\n"),
    case("websocket-conn-after", get(fields="Host: a\r\nUpgrade: websocket\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nconnection: upgrade\r\nX-A: 1\r\n"),
         resp=WS101),
    case("websocket-conn-keepalive", get(fields="Host: a\r\nConnection: keep-alive, Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"),
         resp=WS101),
    case("websocket-conn-close", get(fields="Host: a\r\nConnection: Upgrade, close\r\nUpgrade: websocket\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"),
         resp=WS101),
    case("websocket-conn-named", get(fields="Host: a\r\nConnection: Upgrade, X-Foo\r\nX-Foo: 1\r\nUpgrade: websocket\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"),
         resp=WS101),
    case("websocket-two-conn-fields", get(fields="Host: a\r\nConnection: keep-alive\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"),
         resp=WS101),
    case("websocket-refused", get(fields="Host: a\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n")),
    case("websocket-resp-conn-last", get(fields="Host: a\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"),
         resp=b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nX-B: 2\r\nSec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\nconnection: keep-alive, UPGRADE\r\n\r\n"),
    case("websocket-101-no-accept", WS_REQ,
         resp=b"HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n"),
    case("websocket-101-bad-accept", WS_REQ,
         resp=b"HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Accept: xx\r\n\r\n"),
    case("websocket-101-no-upgrade", WS_REQ,
         resp=b"HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n\r\n"),
    case("websocket-101-no-connection", WS_REQ,
         resp=b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nSec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n\r\n"),
    case("websocket-101-other-proto", WS_REQ,
         resp=b"HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: foo\r\n\r\n"),
    case("upgrade-other-101-no-connection", get(fields="Host: a\r\nConnection: Upgrade\r\nUpgrade: foo\r\n"),
         resp=b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: foo\r\n\r\n"),
    case("websocket-101-bare", WS_REQ,
         resp=b"HTTP/1.1 101 Switching Protocols\r\nSec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n\r\n"),
    case("websocket-101-upgrade-list", WS_REQ,
         resp=b"HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: foo, WebSocket\r\n\r\n"),
    case("upgrade-other-101", get(fields="Host: a\r\nConnection: Upgrade\r\nUpgrade: foo\r\n"),
         resp=b"HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: foo\r\n\r\n"),
    case("websocket-http10", get(version="HTTP/1.0", fields="Connection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n")),
    case("websocket-sc", get(fields="Host: a\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"),
         resp=WS101, opts=["option http-server-close"]),
    case("upgrade-h2c-101", get(fields="Host: a\r\nConnection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\nHTTP2-Settings: AAMAAABkAAQAAP__\r\n"),
         resp=b"HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: h2c\r\n\r\n"),
    case("websocket-no-key", get(fields="Host: a\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n")),
    case("many-fields-99", get(fields="Host: a\r\n" + "".join(f"X-{i}: v\r\n" for i in range(98)))),
    case("many-fields-100", get(fields="Host: a\r\n" + "".join(f"X-{i}: v\r\n" for i in range(99)))),
    case("many-fields-101", get(fields="Host: a\r\n" + "".join(f"X-{i}: v\r\n" for i in range(100)))),
    # chunked bodies
    case("chunk-ext", b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n5;foo=bar\r\nhello\r\n0\r\n\r\n"),
    case("chunk-ext-quoted", b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n5;foo=\"b a\"\r\nhello\r\n0\r\n\r\n"),
    case("chunk-ext-bws", b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n5 ; foo\r\nhello\r\n0\r\n\r\n"),
    case("chunk-upper-hex", b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\nA\r\n0123456789\r\n0\r\n\r\n"),
    case("chunk-lower-hex", b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n1a\r\nabcdefghijklmnopqrstuvwxyz\r\n0\r\n\r\n"),
    case("te-before-fields", b"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\nHost: a\r\nX-A: 1\r\n\r\n5\r\nhello\r\n0\r\n\r\n"),
    case("chunk-leading-zeros", b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n0005\r\nhello\r\n000\r\n\r\n"),
    case("chunk-trailers", b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\nX-T: 1\r\nX-U: 2\r\n\r\n"),
    case("chunk-missing-final-crlf", b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n"),
    case("chunk-data-no-crlf", b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhelloX\r\n0\r\n\r\n"),
    case("chunk-size-2^63", b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n8000000000000000\r\nhello\r\n0\r\n\r\n"),
    case("chunk-size-2^64+5", b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n10000000000000005\r\nhello\r\n0\r\n\r\n"),
    case("chunk-size-2^52", b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n10000000000000\r\nhello\r\n0\r\n\r\n"),
    case("chunk-size-negative", b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n-5\r\nhello\r\n0\r\n\r\n"),
    case("chunk-size-0x", b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n0x5\r\nhello\r\n0\r\n\r\n"),
    case("chunk-size-space-before", b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n 5\r\nhello\r\n0\r\n\r\n"),
    case("chunk-size-trailing-space", b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n5 \r\nhello\r\n0\r\n\r\n"),
    case("chunk-empty-size", b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n\r\nhello\r\n0\r\n\r\n"),
    case("chunk-bad-trailer", b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n0\r\nBad Name: 1\r\n\r\n"),
    # pipelining
    case("pipeline-2", get() + get("/2")),
    case("pipeline-post-get", b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\n\r\nabc" + get("/2")),
    case("pipeline-bad-second", get() + b"GET /\x01 HTTP/1.1\r\nHost: a\r\n\r\n"),
    case("pipeline-close-first", get(fields="Host: a\r\nConnection: close\r\n") + get("/2")),
    case("head-pipeline", get(method="HEAD") + get("/2"), resp=b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n"),
    # responses
    case("resp-100-then-200", get(), resp=b"HTTP/1.1 100 Continue\r\n\r\n" + OK),
    case("resp-103", get(), resp=b"HTTP/1.1 103 Early Hints\r\nLink: </s.css>\r\n\r\n" + OK),
    case("resp-204-with-cl", get(), resp=b"HTTP/1.1 204 No Content\r\nContent-Length: 0\r\n\r\n"),
    case("resp-204-body", get() + get("/2"), resp=b"HTTP/1.1 204 No Content\r\n\r\nxx"),
    case("resp-304", get(), resp=b"HTTP/1.1 304 Not Modified\r\nContent-Length: 10\r\nETag: \"x\"\r\n\r\n"),
    case("resp-head-cl", get(method="HEAD"), resp=b"HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n"),
    case("resp-head-chunked", get(method="HEAD"), resp=b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"),
    case("resp-no-cl-close", get(), resp=b"HTTP/1.1 200 OK\r\n\r\nbody", close_after=True),
    case("resp-no-cl-http10", get(version="HTTP/1.0", fields=""), resp=b"HTTP/1.1 200 OK\r\n\r\nbody", close_after=True),
    case("resp-http10", get(), resp=b"HTTP/1.0 200 OK\r\nContent-Length: 2\r\n\r\nok"),
    case("resp-http10-keepalive", get(), resp=b"HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nContent-Length: 2\r\n\r\nok"),
    case("resp-chunked", get(), resp=b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nok\r\n0\r\nX-T: 1\r\n\r\n"),
    case("resp-chunked-http10-client", get(version="HTTP/1.0", fields=""),
         resp=b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nok\r\n0\r\n\r\n"),
    case("resp-dup-cl-same", get(), resp=b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: 2\r\n\r\nok"),
    case("resp-dup-cl-diff", get(), resp=b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\nok"),
    case("resp-cl-and-te", get(), resp=b"HTTP/1.1 200 OK\r\nContent-Length: 9\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nok\r\n0\r\n\r\n"),
    case("resp-bad-status-line", get(), resp=b"HTTP/1.1 2x0 OK\r\nContent-Length: 2\r\n\r\nok"),
    case("resp-no-reason", get(), resp=b"HTTP/1.1 200\r\nContent-Length: 2\r\n\r\nok"),
    case("resp-no-reason-space", get(), resp=b"HTTP/1.1 200 \r\nContent-Length: 2\r\n\r\nok"),
    case("resp-garbage", get(), resp=b"hello world\r\n\r\n"),
    case("resp-http09", get(), resp=b"ok", close_after=True),
    case("resp-bad-name", get(), resp=b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\nBad(Name): 1\r\n\r\nok"),
    case("resp-bad-name-ais", get(), resp=b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\nBad(Name): 1\r\n\r\nok", opts=[AIS]),
    case("resp-bare-lf", get(), resp=b"HTTP/1.1 200 OK\nContent-Length: 2\n\nok"),
    case("resp-connection-close", get() + get("/2"), resp=b"HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 2\r\n\r\nok"),
    case("resp-cl-short", get(), resp=b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nok", close_after=True),
    case("resp-te-gzip", get(), resp=b"HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\n\r\nbody", close_after=True),
    case("resp-truncated-head", get(), resp=b"HTTP/1.1 200 OK\r\nContent-Le", close_after=True),
    case("resp-truncated-chunked", get(), resp=b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nab", close_after=True),
    case("resp-500", get(), resp=b"HTTP/1.1 500 Oops\r\nContent-Length: 2\r\n\r\nok"),
    case("resp-999", get(), resp=b"HTTP/1.1 999 Odd\r\nContent-Length: 2\r\n\r\nok"),
    case("resp-status-1000", get(), resp=b"HTTP/1.1 1000 Odd\r\nContent-Length: 2\r\n\r\nok"),
    # requests in several packets
    case("split-bad-chunk", None, parts=[b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n",
                                         b"zz\r\nhello\r\n0\r\n\r\n"]),
    case("split-body", None, parts=[b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\n", b"hello"]),
    case("split-head", None, parts=[b"GET / HTTP/1.1\r\nHo", b"st: a\r\n\r\n"]),
    case("split-expect", None, resp=b"HTTP/1.1 100 Continue\r\n\r\n" + OK,
         parts=[b"POST / HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\nContent-Length: 5\r\n\r\n", b"hello"]),
    case("split-pipeline", None, parts=[get(), get("/2")]),
    # more request edge cases
    case("expect-100-no-body", get(fields="Host: a\r\nExpect: 100-continue\r\n")),
    case("get-cl-zero", get(fields="Host: a\r\nContent-Length: 0\r\n")),
    case("trace", get(method="TRACE")),
    case("options-max-forwards", get("*", method="OPTIONS", fields="Host: a\r\nMax-Forwards: 0\r\n")),
    case("host-trailing-dot", get(fields="Host: a.\r\n")),
    case("host-upper", get(fields="Host: A.EXAMPLE\r\n")),
    case("host-ipv6", get(fields="Host: [::1]:8080\r\n")),
    case("uri-double-slash", get("//a//b")),
    case("uri-dot-segments", get("/a/../b/./c")),
    case("uri-query-special", get("/?a=b&c=%zz;d")),
    case("cookie-two-fields", get(fields="Host: a\r\nCookie: a=1\r\nCookie: b=2\r\n")),
    case("te-trailers-http10", get(version="HTTP/1.0", fields="TE: trailers\r\n")),
    case("connection-close-http10-ka", get(version="HTTP/1.0", fields="Connection: keep-alive, close\r\n")),
    case("resp-101-unasked", get(), resp=b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: x\r\n\r\n"),
    case("resp-1xx-then-close", get(), resp=b"HTTP/1.1 100 Continue\r\n\r\n", close_after=True),
    case("resp-multiple-1xx", get(), resp=b"HTTP/1.1 102 Processing\r\n\r\nHTTP/1.1 103 Early Hints\r\n\r\n" + OK),
    case("resp-cl-list", get(), resp=b"HTTP/1.1 200 OK\r\nContent-Length: 2, 2\r\n\r\nok"),
    case("resp-te-chunked-upper", get(), resp=b"HTTP/1.1 200 OK\r\nTransfer-Encoding: Chunked\r\n\r\n2\r\nok\r\n0\r\n\r\n"),
    case("resp-chunk-ext", get(), resp=b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2;x=y\r\nok\r\n0\r\n\r\n"),
    case("resp-keepalive-header", get(), resp=b"HTTP/1.1 200 OK\r\nKeep-Alive: timeout=5\r\nContent-Length: 2\r\n\r\nok"),
    case("resp-304-te", get(), resp=b"HTTP/1.1 304 Not Modified\r\nTransfer-Encoding: chunked\r\n\r\n"),
    case("resp-204-te", get() + get("/2"), resp=b"HTTP/1.1 204 No Content\r\nTransfer-Encoding: chunked\r\n\r\n"),
    # connection modes
    case("sc-pipeline", get() + get("/2"), opts=["option http-server-close"]),
    case("sc-http10", get(version="HTTP/1.0", fields="Connection: keep-alive\r\n"), opts=["option http-server-close"]),
    case("hc-pipeline", get() + get("/2"), opts=["option httpclose"]),
    case("hc-http10", get(version="HTTP/1.0", fields="Connection: keep-alive\r\n"), opts=["option httpclose"]),
]


# Differences made on purpose or known, and where they are explained: reported as "known", not as DIFF.
STRICT = "docs/http1-strictness.md "
SWEEP = "docs/differences.md (HTTP/1, what the sweep still finds)"
KNOWN = {
    "get-asterisk": STRICT + "[target-form]", "version-20": STRICT + "[major-version]",
    "dup-host-same": STRICT + "[host-unique]", "no-host-11": STRICT + "[host-required]",
    "obs-fold": STRICT + "[obs-fold]", "bare-lf": STRICT + "[bare-lf]", "ctl-in-value": STRICT + "[ctl-in-value]",
    "del-in-value": STRICT + "[ctl-in-value]", "te-http10": STRICT + "[te-http10]", "chunk-bad-trailer": STRICT + "[trailers]",
    "resp-status-1000": STRICT + "[status-code]", "space-before-colon-air": STRICT + "[accept-invalid-names]",
    "connection-token": STRICT + "hop-by-hop fields", "keep-alive-field": STRICT + "hop-by-hop fields",
    "proxy-connection": STRICT + "hop-by-hop fields", "upgrade-no-connection": STRICT + "hop-by-hop fields",
    "resp-keepalive-header": STRICT + "hop-by-hop fields",
    "cl-leading-zeros": SWEEP, "te-uppercase": SWEEP, "resp-te-chunked-upper": SWEEP,
    "resp-chunked-http10-client": SWEEP, "resp-http09": SWEEP,
    "version-other-proto-air": SWEEP, "version-two-digits-air": SWEEP,
}


class Origin(threading.Thread):
    """A raw server: captures what each connection sends and answers each request head with the case's bytes. With
    <tls> (a server SSLContext) it speaks TLS, and what it captures starts with the name the client sent (SNI) and
    the protocol ALPN chose: b"<sni=NAME alpn=PROTO>" (or b"<tls: REASON>" when the handshake failed)."""

    def __init__(self, port, tls=None):
        super().__init__(daemon=True)
        self.tls = tls
        if tls is not None:
            tls.sni_callback = lambda conn, name, ctx: setattr(conn, "sni", name)
        self.sock = socket.socket()
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", port))
        self.sock.listen(64)
        self.conns = []
        self.resp = OK
        self.close_after = False
        self.lock = threading.Lock()

    def run(self):
        while True:
            c, _ = self.sock.accept()
            rec = bytearray()
            with self.lock:
                self.conns.append(rec)
            threading.Thread(target=self.serve, args=(c, rec, self.resp, self.close_after), daemon=True).start()

    def serve(self, c, rec, resp, close_after):
        answered = 0  # heads answered so far
        try:
            if self.tls is not None:
                try:
                    c = self.tls.wrap_socket(c, server_side=True)
                except ssl.SSLError as e:  # the alert the client sent, or what was wrong with its bytes
                    rec.extend(b"<tls: %s>" % str(e.reason).encode())
                    return
                rec.extend(b"<sni=%s alpn=%s>" % (str(getattr(c, "sni", None)).encode(),
                                                  str(c.selected_alpn_protocol()).encode()))
            while True:
                r = self.tls is not None and c.pending() or select.select([c], [], [], 0.15)[0]
                if r:
                    d = c.recv(65536)
                    if not d:
                        break
                    rec.extend(d)
                    continue
                # quiet: answer the heads that arrived since the last answer
                heads = rec.count(b"\r\n\r\n") + rec.count(b"\n\n") - rec.count(b"\r\n\r\n\r\n")
                if heads > answered:
                    answered = heads
                    c.sendall(resp)
                    if close_after:
                        break
        except OSError:
            pass
        finally:
            c.close()


class Syslog(threading.Thread):
    def __init__(self, port):
        super().__init__(daemon=True)
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.sock.bind(("127.0.0.1", port))
        self.lines = []

    def run(self):
        while True:
            d, _ = self.sock.recvfrom(65536)
            self.lines.append(d.decode("latin-1").rstrip("\n"))


class Proxy:
    def __init__(self, name, cmd, base, opts, tmp):
        self.name = name
        self.fe, self.be, self.log = base, base + 1, base + 2
        self.origin = Origin(self.be)
        self.origin.start()
        self.syslog = Syslog(self.log)
        self.syslog.start()
        self.admin = os.path.join(tmp, name + ".sock")
        cfg = os.path.join(tmp, name + ".cfg")
        extra = "".join("    %s\n" % o for o in opts)
        with open(cfg, "w") as f:
            f.write(f"""global
    log 127.0.0.1:{self.log} format raw local0
    stats socket {self.admin} level admin
defaults
    mode http
    log global
    option httplog
    timeout connect 2s
    timeout client 3s
    timeout server 3s
    timeout http-request 3s
    timeout http-keep-alive 5s
{extra}frontend fe
    bind 127.0.0.1:{self.fe}
    default_backend be
backend be
    http-reuse never
    server s1 127.0.0.1:{self.be}
""")
        self.out = open(os.path.join(tmp, name + ".out"), "w")
        self.proc = subprocess.Popen(cmd + ["-db", "-f", cfg], stdout=self.out, stderr=subprocess.STDOUT)
        try:
            wait_listening(self.fe, self.proc)
            deadline = time.time() + 10
            while not os.path.exists(self.admin) and time.time() < deadline:
                time.sleep(0.05)  # (the stats socket may come after the listeners)
        except BaseException:
            self.stop()  # (a proxy left running would share the next run's port through SO_REUSEPORT)
            raise

    def errors(self):
        s = socket.socket(socket.AF_UNIX)
        s.connect(self.admin)
        s.sendall(b"show errors\n")
        with s, s.makefile("rb") as f:
            out = f.read()
        m = re.search(rb"Total events captured on \[[^]]*\] : (\d+)", out)
        return int(m.group(1)) if m else -1

    def run(self, c):
        self.origin.resp, self.origin.close_after = c["resp"], c["close_after"]
        with self.origin.lock:
            self.origin.conns.clear()
        nlog = len(self.syslog.lines)
        nerr = self.errors()
        s = socket.create_connection(("127.0.0.1", self.fe))
        s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        for i, part in enumerate(c["parts"] or [c["req"]]):
            if i:
                time.sleep(0.3)
            s.sendall(part)
        got, closed = receive(s, 0.8, 6)
        s.close()
        time.sleep(0.3)  # the log line, the server side
        with self.origin.lock:
            server = [bytes(x) for x in self.origin.conns]
        logs = [norm_log(line) for line in self.syslog.lines[nlog:]]
        return dict(client=got, closed=closed, server=server, logs=logs, errors=self.errors() - nerr)

    def stop(self):
        stop(self.proc, self.out)


def receive(s, quiet, limit, first=None):
    """What socket <s> receives until it is quiet for <quiet> seconds (<first> before the first byte, when given),
    closes or <limit> seconds pass (the sweeps' clients): the bytes, and False, True (closed) or "reset"."""
    got, closed = b"", False
    deadline = time.time() + limit
    while time.time() < deadline:
        if not (isinstance(s, ssl.SSLSocket) and s.pending()):  # (what TLS already decrypted is not select's)
            r, _, _ = select.select([s], [], [], first if first is not None and not got else quiet)
            if not r:
                break
        try:
            d = s.recv(65536)
        except ssl.SSLWantReadError:
            continue
        except ConnectionResetError:
            closed = "reset"
            break
        except ssl.SSLError as e:  # an alert (TLS 1.3 sends a refused client certificate's after the handshake)
            closed = "<tls: %s>" % e.reason
            break
        if not d:
            closed = True
            break
        got += d
    return got, closed


def norm_log(line):
    line = re.sub(r"^127\.0\.0\.1:\d+ \[[^]]*\]", "CLIENT [DATE]", line)
    # %TR/%Tw/%Tc/%Tr/%Ta and %B (HAProxy counts its internal form of the messages, Fulcrum the wire bytes)
    return re.sub(r" (-?\d+/){4}\+?-?\d+ (-?\d+) \+?\d+ ", r" T/T/T/T/T \2 B ", line, count=1)


def statuses(b):
    return [m.decode() for m in re.findall(rb"(?:^|\n)(HTTP/\d\.\d \d{3}[^\r\n]*)", b)]


def cut(line):
    """A line truncated to the log length (1024) may end at a different byte when the timers differ in width."""
    return line[:850] if len(line) > 900 else line


def compare(c, f, h):
    diffs = []
    if statuses(f["client"]) != statuses(h["client"]):
        diffs.append(("status", statuses(f["client"]), statuses(h["client"])))
    elif f["client"] != h["client"]:
        diffs.append(("client", f["client"], h["client"]))
    if f["closed"] != h["closed"]:
        diffs.append(("closed", f["closed"], h["closed"]))
    if f["server"] != h["server"]:
        diffs.append(("server", f["server"], h["server"]))
    if [cut(x) for x in f["logs"]] != [cut(x) for x in h["logs"]]:
        diffs.append(("log", f["logs"], h["logs"]))
    if (f["errors"] > 0) != (h["errors"] > 0):
        diffs.append(("errors", f["errors"], h["errors"]))
    return diffs


def report(name, diffs, known, verbose, detail, heading=""):
    """Prints a case's outcome (tools/sample-diff.py's too): returns "same", "known" or "differ"."""
    if diffs and name in known and not verbose:
        print("known %s: %s" % (name, known[name]))
        return "known"
    if diffs:
        print("DIFF %s%s" % (name, heading))
        for what, fv, hv in diffs:
            print("   %-7s fulcrum: %r" % (what, fv))
            print("   %-7s haproxy: %r" % ("", hv))
        return "differ"
    if verbose:
        print("same %s: %s" % (name, detail))
    return "same"


def summary(counts, tmp):
    """Prints a sweep's counts (its "same", "known" and "differ"); its exit status: 1 when a case differs."""
    print("%d same, %d known, %d differ (files in %s)" % (counts["same"], counts["known"], counts["differ"], tmp))
    return 1 if counts["differ"] else 0


def both(f, h, c):
    """Runs case <c> through proxies <f> (Fulcrum) and <h> (haproxy) at once: their results (the sweeps' loop)."""
    res = {}
    ts = [threading.Thread(target=lambda p=p: res.__setitem__(p, p.run(c))) for p in (f, h)]
    [t.start() for t in ts]
    [t.join() for t in ts]
    return res[f], res[h]


def arguments(port):
    """The command line of a sweep (tools/sample-diff.py's too), its ports from {port} on."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--only", help="the cases whose name this regular expression finds")
    ap.add_argument("--port", type=int, default=port)
    ap.add_argument("--haproxy", default="/usr/sbin/haproxy")
    ap.add_argument("-v", action="store_true")
    return ap.parse_args()


def main():
    a = arguments(21000)
    cases = [c for c in CASES if not a.only or re.search(a.only, c["name"])]
    groups = {}
    for c in cases:
        groups.setdefault(c["opts"], []).append(c)
    tmp = tempfile.mkdtemp(prefix="h1diff-")
    counts = collections.Counter()
    for gi, (opts, cs) in enumerate(groups.items()):
        base = a.port + gi * 10
        f = Proxy("fulcrum", [os.path.join(HOME, "bin/fulcrum")], base, opts, tmp)
        h = Proxy("haproxy", [a.haproxy], base + 5, opts, tmp)
        try:
            for c in cs:
                fr, hr = both(f, h, c)
                diffs = compare(c, fr, hr)
                counts[report(c["name"], diffs, KNOWN, a.v, statuses(hr["client"]),
                              " " + " ".join(opts))] += 1
        finally:
            f.stop()
            h.stop()
    print("%d same, %d known, %d differ (logs in %s)" % (counts["same"], counts["known"], counts["differ"], tmp))
    return 1 if counts["differ"] else 0


if __name__ == "__main__":
    sys.exit(main())
