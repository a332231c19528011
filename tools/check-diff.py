#!/usr/bin/env python3
"""Differential sweep of the health checks: the same check settings against the same scripted servers, through
Fulcrum and haproxy.

Each case is a backend of its own whose server (and agent, when the case has one) is a scripted TCP server of this
script: it runs the case's exchange on every connection (send these bytes, read what comes until a short quiet, close)
and records what each of the first connections received. Both proxies run every case at once for a few seconds, their
checks every 200 ms with option log-health-checks; then the script compares, per case: the bytes the first check
connections sent, the log lines about the backend (consecutive repeats folded, durations blanked), and the server's
check columns of show stat (status, check_status, check_code, check_desc, last_chk, the agent's, weight...).

Usage: tools/check-diff.py [--only REGEX] [--port 17000] [--haproxy /usr/sbin/haproxy] [-v] [--seconds 4]
Ports: --port and --port+1 (the log receivers), then two per case and proxy from --port+10.
Differences listed in KNOWN (on purpose, documented) print as "known"; the exit status is 1 when another one is
found. The packaged jar must exist (bin/mvn -q -o package -DskipTests).
"""
import collections
import os
import re
import socket
import ssl
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from proxyrun import cli, start, stop  # noqa: E402

h1diff = __import__("h1-diff")
rulesdiff = __import__("rules-diff")
HOME = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

RECV = ("recv",)
CLOSE = ("close",)
SILENT = [("recv",), ("wait",)]  # reads, never answers, holds the connection


def send(b):
    return ("send", b)


def http(status=b"200 OK", fields=b"", body=b"", close=True):
    return [RECV, send(b"HTTP/1.1 " + status + b"\r\n" + fields + b"Content-Length: %d\r\n\r\n" % len(body) + body)] + \
        ([CLOSE] if close else [("wait",)])


def case(name, be, script=None, agent=None, server="server s1 {srv} check", top="", tls=False, mask=()):
    """be: the backend's lines ({srv}: the scripted server's address, {agent}: its agent's port, {dead}: an address
    nobody listens on); server: the server line appended to them (none when empty); script: the server's exchange,
    a list of RECV, send(bytes), CLOSE, ("wait",), ("sleep", seconds) (default: read, then close); agent: the agent's
    exchange, None when the case has none; tls: the server speaks TLS; mask: regular expressions blanked in what is
    compared."""
    return dict(name=name, be=list(be) + ([server] if server else []), script=script or [RECV, CLOSE], agent=agent,
                top=top, tls=tls, mask=list(mask))


def hc(name, *lines, **kw):
    """A case of option httpchk with <lines> (http-check ...), the server answering kw's script (200 by default)."""
    kw.setdefault("script", http())
    return case(name, ["option httpchk"] + ["http-check " + x for x in lines], **kw)


def tc(name, *lines, **kw):
    """A case of option tcp-check with <lines> (tcp-check ...)."""
    return case(name, ["option tcp-check"] + ["tcp-check " + x for x in lines], **kw)


HELLO_TIME = r"(?s)(?<=^\x16\x03\x00\x00y\x01\x00\x00u\x03\x00).{4}"  # ssl-hello-chk's gmt_unix_time

# The health check's line says the server's state as the agent left it: which of the two ran first is timing.
RACE = r"(?<=3/3 )(UP|DRAIN)"

CASES = [
    # --- layer 4 ----------------------------------------------------------------------------------------------------
    case("l4-ok", []),
    case("l4-refused", [], server="server s1 {dead} check"),
    case("l4-timeout-mute", [], server="server s1 {mute} check"),
    case("l4-port-option", [], server="server s1 {dead} check port {srvport}"),
    case("l4-addr-option", [], server="server s1 127.0.0.1:1 check addr 127.0.0.1 port {srvport}"),
    case("l4-no-log-health", ["no option log-health-checks"], server="server s1 {dead} check"),
    case("l4-rise-fall", [], server="server s1 {dead} check rise 1 fall 1"),
    case("l4-disabled", [], server="server s1 {dead} check disabled"),
    case("l4-backup", [], server="server s1 {dead} check\n    server s2 {srv} check backup"),
    case("l4-two-down", [], server="server s1 {dead} check\n    server s2 {dead2} check",
         mask=[r"\d active and"]),  # (which goes down first is the checks' timing)
    case("l4-send-proxy", [], server="server s1 {srv} check check-send-proxy", script=[("sleep", 0.2), RECV]),
    case("l4-send-proxy-v2", [], server="server s1 {srv} check check-send-proxy send-proxy-v2",
         script=[("sleep", 0.2), RECV]),
    # --- option httpchk ---------------------------------------------------------------------------------------------
    hc("http-200"),
    hc("http-500", script=http(b"500 Internal Server Error")),
    hc("http-404", script=http(b"404 Not Found")),
    hc("http-302", script=http(b"302 Found", b"Location: /x\r\n")),
    hc("http-garbage", script=[RECV, send(b"garbage\r\n\r\n"), CLOSE]),
    hc("http-close-no-answer", script=[RECV, CLOSE]),
    hc("http-silent", script=SILENT),
    hc("http-no-close", script=http(close=False)),
    hc("http-partial", script=[RECV, send(b"HTTP/1.1 200 OK\r\nContent-Le"), CLOSE]),
    hc("http-status-line-crlf", script=[RECV, send(b"HTTP/1.1 200 OK\r\n"), CLOSE]),
    hc("http-status-line-bare", script=[RECV, send(b"HTTP/1.1 200 OK"), CLOSE]),
    hc("http-head-unended", script=[RECV, send(b"HTTP/1.1 200 OK\r\nX: y\r\n"), CLOSE]),
    hc("http-body-short", "expect string done", script=[RECV, send(b"HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\ndone"), CLOSE]),
    hc("http-10", script=[RECV, send(b"HTTP/1.0 200 OK\r\n\r\nfine"), CLOSE]),
    hc("http-status-only", script=[RECV, send(b"HTTP/1.1 200\r\n\r\n"), CLOSE]),
    hc("http-reason-long", script=http(b"503 Service Unavailable Because Of Maintenance Window Right Now")),
    case("httpchk-uri", ["option httpchk /health"], script=http()),
    case("httpchk-meth-uri", ["option httpchk HEAD /h"], script=http()),
    case("httpchk-meth-uri-ver", ["option httpchk OPTIONS * HTTP/1.1\\r\\nHost:\\ www"], script=http()),
    case("httpchk-ver-11", ["option httpchk GET /h HTTP/1.1"], script=http()),
    hc("send-meth-uri-ver", "send meth POST uri /p ver HTTP/1.1 hdr Host h.example hdr X-A 1 body abc"),
    hc("send-uri-lf", "send uri-lf /%[str(lf)] hdr Host h"),
    hc("send-body-lf", "send meth POST body-lf %[str(x),upper]"),
    hc("send-hdr-lf", "send hdr X-B %[int(7)]"),
    hc("send-http10", "send ver HTTP/1.0"),
    hc("send-state", "send-state", mask=[r"port=\d+"]),
    case("send-state-backup", ["option httpchk", "http-check send-state"],
         server="server s1 {srv} check backup", script=http(), mask=[r"port=\d+"]),
    hc("expect-status-ok", "expect status 200", script=http()),
    hc("expect-status-fail", "expect status 201", script=http()),
    hc("expect-status-range", "expect status 200-299", script=http(b"204 No Content")),
    hc("expect-status-list", "expect status 200,204", script=http(b"204 No Content")),
    hc("expect-not-status", "expect ! status 500", script=http(b"500 Internal Server Error")),
    hc("expect-rstatus", "expect rstatus ^2", script=http(b"302 Found")),
    hc("expect-string-ok", "expect string alive", script=http(body=b"I am alive")),
    hc("expect-string-fail", "expect string alive", script=http(body=b"I am dead")),
    hc("expect-not-string", "expect ! string error", script=http(body=b"error here")),
    hc("expect-rstring", "expect rstring ^I.am", script=http(body=b"I am here")),
    hc("expect-rstring-fail", "expect rstring ^x", script=http(body=b"I am here")),
    hc("expect-string-no-body", "expect string x", script=http()),
    hc("expect-hdr-name", "expect hdr name X-Ok", script=http(fields=b"X-Ok: 1\r\n")),
    hc("expect-hdr-name-missing", "expect hdr name X-Ok", script=http()),
    hc("expect-hdr-value", "expect hdr name content-type value -m beg text/", script=http(fields=b"Content-Type: text/html\r\n")),
    hc("expect-hdr-value-fail", "expect hdr name content-type value -m beg text/",
       script=http(fields=b"Content-Type: application/json\r\n")),
    hc("expect-fhdr", "expect fhdr name x-d value -m sub b,c", script=http(fields=b"X-D: a, b,c\r\n")),
    hc("expect-hdr-list", "expect hdr name x-d value -m str b", script=http(fields=b"X-D: a, b\r\n")),
    hc("expect-comment", "comment \"the check\"", "expect status 200", script=http(b"500 Bad")),
    hc("expect-error-status", "expect status 200 error-status L7RSP", script=http(b"500 Bad")),
    hc("expect-ok-status-l6", "expect status 200 ok-status L6OK", script=http()),
    hc("expect-tout-status", "expect status 200 tout-status L7TOUT", script=SILENT),
    hc("expect-on-error", "expect status 200 on-error \"st=%[res.hdr(x-s)]\"", script=http(b"500 Bad", b"X-S: hot\r\n")),
    hc("expect-on-success", "expect status 200 on-success \"fine %[res.body]\"", script=http(body=b"good")),
    hc("expect-status-code", "expect status 200 status-code \"res.hdr(x-c)\" error-status L7RSP",
       script=http(b"500 Bad", b"X-C: 599\r\n")),
    hc("expect-min-recv", "expect min-recv 1000 status 200", script=http(close=False)),
    hc("expect-two-rules", "expect status 200", "expect string ok", script=http(body=b"not k")),
    case("disable-on-404", ["option httpchk", "http-check disable-on-404"], script=http(b"404 Not Found")),
    case("disable-on-404-500", ["option httpchk", "http-check disable-on-404"], script=http(b"500 Bad")),
    hc("connect-send-expect", "connect", "send meth GET uri /c", "expect status 200"),
    hc("two-requests", "connect", "send uri /a", "expect status 200", "connect", "send uri /b", "expect status 200"),
    hc("set-var", "set-var(check.x) str(/v)", "send uri-lf %[var(check.x)]", "expect status 200"),
    hc("unset-var", "set-var(check.x) str(/v)", "unset-var(check.x)", "send uri-lf /%[var(check.x)]"),
    hc("expect-then-comment", "expect status 200 comment \"ok rule\"", script=http(b"500 Bad")),
    case("httpchk-default-expect-1xx", ["option httpchk"], script=http(b"101 Switching Protocols")),
    case("httpchk-no-content-length", ["option httpchk", "http-check expect string done"],
         script=[RECV, send(b"HTTP/1.1 200 OK\r\n\r\nall done"), CLOSE]),
    case("httpchk-chunked", ["option httpchk", "http-check expect string done"],
         script=[RECV, send(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4\r\ndone\r\n0\r\n\r\n"), CLOSE]),
    # --- tcp-check --------------------------------------------------------------------------------------------------
    tc("tcp-connect-only", "connect"),
    tc("tcp-send-expect", "send PING\\r\\n", "expect string +PONG", script=[RECV, send(b"+PONG\r\n"), CLOSE]),
    tc("tcp-expect-fail", "send PING\\r\\n", "expect string +PONG", script=[RECV, send(b"-ERR\r\n"), CLOSE]),
    tc("tcp-expect-rstring", "send x\\n", "expect rstring ^[0-9]+$", script=[RECV, send(b"123"), CLOSE]),
    tc("tcp-expect-binary", "send-binary 50494e470d0a", "expect binary 2b504f4e47",
       script=[RECV, send(b"+PONG\r\n"), CLOSE]),
    tc("tcp-expect-rbinary", "send-binary 00", "expect rbinary ^2b50", script=[RECV, send(b"+PONG\r\n"), CLOSE]),
    tc("tcp-banner", "expect string 220", "send QUIT\\r\\n", "expect string 221",
       script=[send(b"220 hello\r\n"), RECV, send(b"221 bye\r\n"), CLOSE]),
    tc("tcp-expect-closed", "send x\\n", "expect string y", script=[RECV, CLOSE]),
    tc("tcp-expect-silent", "send x\\n", "expect string y", script=SILENT),
    tc("tcp-not-string", "send x\\n", "expect ! string ERR", script=[RECV, send(b"ERR"), CLOSE]),
    tc("tcp-min-recv", "send x\\n", "expect min-recv 5 string ab", script=[RECV, send(b"ab"), ("sleep", 0.05),
                                                                        send(b"cde"), CLOSE]),
    tc("tcp-send-lf", "send-lf %[str(hi),upper]\\n", "expect string ok", script=[RECV, send(b"ok"), CLOSE]),
    tc("tcp-send-binary-lf", "send-binary-lf %[str(4142)]", "expect string ok",
       script=[RECV, send(b"ok"), CLOSE]),
    tc("tcp-comment", "comment \"say hi\"", "send hi\\n", "comment \"want ok\"", "expect string ok",
       script=[RECV, send(b"no"), CLOSE]),
    tc("tcp-expect-status-rules", "send x\\n", "expect string ok error-status L6RSP on-error \"got %[res.payload(0,0)]\"",
       script=[RECV, send(b"no"), CLOSE]),
    tc("tcp-connect-port", "connect port {srvport}", server="server s1 127.0.0.1:1 check"),
    tc("tcp-connect-port-dead", "connect port {deadport}", server="server s1 {srv} check"),
    tc("tcp-two-connects", "connect", "send a\\n", "expect string A", "connect port {srvport}", "send b\\n",
       "expect string A", script=[RECV, send(b"A"), CLOSE]),
    tc("tcp-set-var", "set-var(check.x) str(hey)", "send-lf %[var(check.x)]\\n", "expect string ok",
       script=[RECV, send(b"ok"), CLOSE]),
    tc("tcp-expect-ok-status", "send x\\n", "expect string ok ok-status L4OK", script=[RECV, send(b"ok"), CLOSE]),
    tc("tcp-expect-rstring-capture", "send x\\n", "expect rstring v([0-9]+) on-error \"v=%[res.payload(0,2),hex]\"",
       script=[RECV, send(b"nope"), CLOSE]),
    # --- protocol checks --------------------------------------------------------------------------------------------
    case("smtpchk-ok", ["option smtpchk"], script=[send(b"220 mx ESMTP\r\n"), RECV, send(b"250 hello\r\n"), RECV,
                                                   CLOSE]),
    case("smtpchk-helo-domain", ["option smtpchk HELO fulcrum.example"],
         script=[send(b"220 mx ESMTP\r\n"), RECV, send(b"250 hello\r\n"), RECV, CLOSE]),
    case("smtpchk-bad-banner", ["option smtpchk"], script=[send(b"554 go away\r\n"), RECV, CLOSE]),
    case("smtpchk-bad-helo", ["option smtpchk"], script=[send(b"220 mx\r\n"), RECV, send(b"501 no\r\n"), RECV, CLOSE]),
    case("redis-check-ok", ["option redis-check"], script=[RECV, send(b"+PONG\r\n"), CLOSE]),
    case("redis-check-fail", ["option redis-check"], script=[RECV, send(b"-LOADING\r\n"), CLOSE]),
    case("ssl-hello-chk-plain", ["option ssl-hello-chk"], script=[RECV, send(b"HTTP/1.1 400 Bad\r\n\r\n"), CLOSE],
         mask=[HELLO_TIME]),
    case("ssl-hello-chk-tls", ["option ssl-hello-chk"], script=[RECV, send(b"\x16\x03\x03\x00\x02\x02\x28"), CLOSE],
         mask=[HELLO_TIME]),
    case("mysql-check-ok", ["option mysql-check"],
         script=[send(b"\x0a\x00\x00\x00\x0a5.7.0\x00\x01\x00\x00\x00abcdefgh\x00\xff\xf7\x08\x02\x00"), RECV, CLOSE]),
    case("mysql-check-user", ["option mysql-check user fulcrum"],
         script=[send(b"\x4a\x00\x00\x00\x0a5.7.0\x00\x01\x00\x00\x00abcdefgh\x00\xff\xf7\x08\x02\x00\xff\x81\x15"
                      + b"\x00" * 10 + b"ijklmnopqrst\x00mysql_native_password\x00"), RECV,
                 send(b"\x07\x00\x00\x02\x00\x00\x00\x02\x00\x00\x00"), RECV, CLOSE]),
    case("mysql-check-error", ["option mysql-check"],
         script=[send(b"\x17\x00\x00\x00\xffj\x04Host is not allowed"), RECV, CLOSE]),
    case("pgsql-check-ok", ["option pgsql-check user fulcrum"], script=[RECV, send(b"R\x00\x00\x00\x08\x00\x00\x00\x00"),
                                                                        CLOSE]),
    case("pgsql-check-fail", ["option pgsql-check user fulcrum"],
         script=[RECV, send(b"E\x00\x00\x00\x1bSFATAL\x00Mno such user\x00\x00"), CLOSE]),
    case("ldap-check-ok", ["option ldap-check"],
         script=[RECV, send(b"\x30\x0c\x02\x01\x01\x61\x07\x0a\x01\x00\x04\x00\x04\x00"), CLOSE]),
    case("ldap-check-fail", ["option ldap-check"],
         script=[RECV, send(b"\x30\x0c\x02\x01\x01\x61\x07\x0a\x01\x31\x04\x00\x04\x00"), CLOSE]),
    case("ldap-check-garbage", ["option ldap-check"], script=[RECV, send(b"hello"), CLOSE]),
    case("spop-check-silent", ["option spop-check"], script=SILENT),
    # --- agent checks -----------------------------------------------------------------------------------------------
    case("agent-up", [], server="server s1 {srv} agent-check agent-port {agent} agent-inter 200ms",
         agent=[send(b"up\n"), CLOSE]),
    case("agent-down", [], server="server s1 {srv} check agent-check agent-port {agent} agent-inter 200ms",
         agent=[send(b"down\n"), CLOSE]),
    case("agent-down-reason", [], server="server s1 {srv} check agent-check agent-port {agent} agent-inter 200ms",
         agent=[send(b"down#going away\n"), CLOSE]),
    case("agent-weight", [], server="server s1 {srv} check weight 10 agent-check agent-port {agent} agent-inter 200ms",
         agent=[send(b"50%\n"), CLOSE], mask=[RACE]),
    case("agent-drain", [], server="server s1 {srv} check agent-check agent-port {agent} agent-inter 200ms",
         agent=[send(b"drain\n"), CLOSE], mask=[RACE]),
    case("agent-maint", [], server="server s1 {srv} check agent-check agent-port {agent} agent-inter 200ms",
         agent=[send(b"maint\n"), CLOSE]),
    case("agent-stopped", [], server="server s1 {srv} check agent-check agent-port {agent} agent-inter 200ms",
         agent=[send(b"stopped\n"), CLOSE]),
    case("agent-fail", [], server="server s1 {srv} check agent-check agent-port {agent} agent-inter 200ms",
         agent=[send(b"fail#broken disk\n"), CLOSE]),
    case("agent-mixed", [], server="server s1 {srv} check agent-check agent-port {agent} agent-inter 200ms",
         agent=[send(b"75% ready maxconn:30\n"), CLOSE], mask=[RACE]),
    case("agent-garbage", [], server="server s1 {srv} check agent-check agent-port {agent} agent-inter 200ms",
         agent=[send(b"whatever\n"), CLOSE]),
    case("agent-empty", [], server="server s1 {srv} check agent-check agent-port {agent} agent-inter 200ms",
         agent=[CLOSE]),
    case("agent-refused", [], server="server s1 {srv} check agent-check agent-port {deadport} agent-inter 200ms"),
    case("agent-send", [], server="server s1 {srv} check agent-check agent-port {agent} agent-inter 200ms "
                                  "agent-send \"hello\\n\"", agent=[RECV, send(b"up\n"), CLOSE]),
    case("agent-no-newline", [], server="server s1 {srv} check agent-check agent-port {agent} agent-inter 200ms",
         agent=[send(b"25%"), CLOSE]),
    case("agent-down-check-fails", [], server="server s1 {dead} check agent-check agent-port {agent} "
                                              "agent-inter 200ms", agent=[send(b"up\n"), CLOSE]),
    # --- TLS checks -------------------------------------------------------------------------------------------------
    case("check-ssl-http", ["option httpchk"], server="server s1 {srv} check check-ssl verify none",
         script=http(), tls=True),
    case("check-ssl-plain-server", ["option httpchk"], server="server s1 {srv} check check-ssl verify none",
         script=http(), mask=[r"(?s)^\x16\x03.*"]),  # (BoringSSL's ClientHello is not OpenSSL's)
    case("check-ssl-verify-fail", ["option httpchk"],
         server="server s1 {srv} check check-ssl verify required ca-file {dir}/other-ca.pem", script=http(), tls=True),
    case("ssl-server-check", ["option httpchk"], server="server s1 {srv} ssl verify none check", script=http(),
         tls=True),
    case("ssl-server-check-sni", ["option httpchk"],
         server="server s1 {srv} ssl verify required ca-file {dir}/ca.pem check check-sni a.example",
         script=http(), tls=True),
    case("tcp-check-ssl", ["option tcp-check", "tcp-check connect ssl", "tcp-check send hi\\n",
                           "tcp-check expect string ok"], server="server s1 {srv} check verify none",
         script=[RECV, send(b"ok"), CLOSE], tls=True),
    case("tcp-check-ssl-sni-alpn", ["option tcp-check", "tcp-check connect ssl sni b.example alpn h2,http/1.1",
                                    "tcp-check send hi\\n", "tcp-check expect string ok"],
         server="server s1 {srv} check verify none", script=[RECV, send(b"ok"), CLOSE], tls=True),
    case("check-alpn", ["option httpchk"], server="server s1 {srv} check check-ssl verify none check-alpn http/1.1",
         script=http(), tls=True),
    case("ssl-server-sni-not-check", ["option httpchk"], server="server s1 {srv} ssl verify none sni str(c.example) check",
         script=http(), tls=True),
    case("http-check-connect-ssl", ["option httpchk", "http-check connect ssl sni d.example", "http-check send uri /s",
                                    "http-check expect status 200"], server="server s1 {srv} check verify none",
         script=http(), tls=True),
    # --- servers tracking others, agents elsewhere, external checks -------------------------------------------------
    case("track-down", [], server="server s1 {dead} check\n    server s2 {srv} track b{i}/s1"),
    case("track-up", [], server="server s1 {srv} check\n    server s2 {srv} track b{i}/s1"),
    case("agent-addr", [], server="server s1 127.0.0.1:1 agent-check agent-addr 127.0.0.1 agent-port {agent} "
                                  "agent-inter 200ms", agent=[send(b"up 60%\n"), CLOSE]),
    case("ext-true", ["option external-check", "external-check command /bin/true"], server="server s1 {srv} check inter 1s"),
    case("ext-false", ["option external-check", "external-check command /bin/false"], server="server s1 {srv} check inter 1s"),
    case("ext-missing", ["option external-check", "external-check command /nonexistent/check"], server="server s1 {srv} check inter 1s"),
    # --- more of http-check and tcp-check ---------------------------------------------------------------------------
    case("httpchk-in-tcp-mode", ["mode tcp", "option httpchk GET /t"], script=http()),
    case("option-uri-then-send", ["option httpchk HEAD /opt", "http-check send hdr X-Extra 1"], script=http()),
    hc("send-body-length", "send meth PUT uri /b body 0123456789"),
    hc("send-host-hdr-11", "send ver HTTP/1.1 hdr host h.example"),
    hc("expect-string-lf", "expect string-lf %[str(ok)]", script=http(body=b"ok then")),
    tc("tcp-expect-string-lf", "send x\\n", "expect string-lf %[str(fine)]", script=[RECV, send(b"all fine"), CLOSE]),
    tc("tcp-expect-binary-lf", "send x\\n", "expect binary-lf %[str(6f6b)]", script=[RECV, send(b"ok"), CLOSE]),
    tc("tcp-connect-send-proxy", "connect send-proxy", "send x\\n", "expect string ok",
       script=[RECV, send(b"ok"), CLOSE], mask=[r"\d+ \d+\r\n"]),
    tc("tcp-connect-linger", "connect linger", "send x\\n", "expect string ok", script=[RECV, send(b"ok"), ("wait",)]),
    tc("tcp-expect-negated-rstring", "send x\\n", "expect ! rstring ^E", script=[RECV, send(b"Error"), CLOSE]),
    tc("tcp-expect-rstring-ok-status", "send x\\n", "expect rstring ^[0-9]+ ok-status L7OKC",
       script=[RECV, send(b"404 nope"), CLOSE]),
    tc("tcp-expect-status-code", "send x\\n", "expect rstring ^2 status-code res.payload(0,3) error-status L7STS",
       script=[RECV, send(b"404 nope"), CLOSE]),
    case("rise-fall", [], server="server s1 {dead} check rise 3 fall 1"),
    case("default-server-check", ["default-server check inter 300ms"], server="server s1 {srv}"),
    case("fastinter-downinter", ["option httpchk"], server="server s1 {srv} check fastinter 100 downinter 100",
         script=http(b"500 Bad")),
]

KNOWN = {}


# Set a second after the start: the servers record the connections accepted from then on (a bare connect's handshake
# completes at the server when the proxy's first checks, still cold, take longer than the delayed ACK to close).
RECORDING = threading.Event()


class Scripted(threading.Thread):
    """A TCP server that runs an exchange on each connection and records what the first ones received."""

    def __init__(self, port, script, tls=None):
        super().__init__(daemon=True)
        self.sock = socket.socket()
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", port))
        self.sock.listen(64)
        self.script, self.tls = script, tls
        self.got = []
        self.conns = 0

    def run(self):
        while True:
            c, _ = self.sock.accept()
            if RECORDING.is_set():
                self.conns += 1
            threading.Thread(target=self.serve, args=(c, self.conns if RECORDING.is_set() else 0), daemon=True).start()

    def serve(self, c, n):
        rec = bytearray()
        if 0 < n <= 2:
            self.got.append(rec)
        try:
            if self.tls is not None:
                c = self.tls.wrap_socket(c, server_side=True)
                rec += b"<sni=%s alpn=%s>" % (str(getattr(c, "sni", None)).encode(), str(c.selected_alpn_protocol()).encode())
            for step in self.script:
                if step[0] == "send":
                    c.sendall(step[1])
                elif step[0] == "recv":
                    rec += read(c, 0.15)
                elif step[0] == "sleep":
                    time.sleep(step[1])
                elif step[0] == "wait":
                    c.settimeout(10)
                    while c.recv(4096):
                        pass
                elif step[0] == "close":
                    break
        except (OSError, ssl.SSLError) as e:
            rec += ("<%s>" % type(e).__name__).encode()
        finally:
            c.close()


def read(c, quiet):
    """What <c> receives until <quiet> seconds pass without a byte (or 3 s without a first one), or it closes."""
    out = b""
    c.settimeout(3)
    while True:
        try:
            d = c.recv(65536)
        except socket.timeout:
            return out
        if not d:
            return out
        out += d
        c.settimeout(quiet)


class Proxy:
    def __init__(self, name, cmd, log, first, tmp, cases):
        self.name, self.dir = name, tmp
        self.syslog = h1diff.Syslog(log)
        self.syslog.start()
        self.sock = os.path.join(tmp, name + ".sock")
        def tls():  # a TLS server's context: it records the name (SNI) each connection asked for
            t = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            t.load_cert_chain(os.path.join(tmp, "a.pem"))
            t.set_alpn_protocols(["h2", "http/1.1"])
            t.sni_callback = lambda sock, name, ctx: setattr(sock, "sni", name)
            return t
        self.servers = {}
        mute = socket.socket()  # {mute}: connections complete in its backlog, nothing ever answers
        mute.bind(("127.0.0.1", 0))
        mute.listen(64)
        self.mute = mute
        out = [f"""global
    log 127.0.0.1:{log} format raw local0
    stats socket {self.sock} level admin
    expose-experimental-directives
    external-check
    insecure-fork-wanted
defaults
    mode http
    log global
    option log-health-checks
    timeout connect 1s
    timeout client 3s
    timeout server 3s
    timeout check 1s
    default-server inter 200ms fastinter 200ms downinter 200ms
"""]
        for i, c in enumerate(cases):
            port = first + 2 * i
            srv = Scripted(port, c["script"], tls() if c["tls"] else None)
            srv.start()
            agent = None
            if c["agent"] is not None:
                agent = Scripted(port + 1, c["agent"])
                agent.start()
            self.servers[c["name"]] = (srv, agent)

            def fill(s):
                return (s.replace("{srv}", "127.0.0.1:%d" % port).replace("{srvport}", str(port))
                        .replace("{agent}", str(port + 1)).replace("{dead}", "127.0.0.1:9")
                        .replace("{dead2}", "127.0.0.1:7").replace("{deadport}", "9")
                        .replace("{mute}", "127.0.0.1:%d" % mute.getsockname()[1]).replace("{i}", str(i))
                        .replace("{dir}", tmp))
            out.append(fill(c["top"]))
            out.append(f"backend b{i}\n")
            out.extend("    %s\n" % fill(x) for x in c["be"])
        self.proc, self.out = start(name, cmd, tmp, "".join(out))
        deadline = time.time() + 30
        while not os.path.exists(self.sock):
            if self.proc.poll() is not None or time.time() > deadline:
                self.stop()
                raise RuntimeError("%s did not start" % name)
            time.sleep(0.05)

    def cli(self, line):
        return cli(self.sock, line)

    def results(self, cases, samples=8):
        """Per case: what its servers received, its log lines and its servers' check columns of show stat, the
        latter from the last of <samples> samples (150 ms apart) where no check was running (when one is, haproxy
        shows a status with "* " and no description yet)."""
        rows = {}
        for _ in range(samples):
            lines = self.cli("show stat").splitlines()
            head = lines[0].lstrip("# ").split(",")
            for line in lines[1:]:
                if line:
                    f = dict(zip(head, line.split(",")))
                    for prefix, fields in (("check_", CHECK_FIELDS), ("agent_", AGENT_FIELDS)):
                        key = (f["pxname"], f["svname"], prefix)
                        if key not in rows or not (f.get(prefix + "status") or "").startswith("* "):
                            rows[key] = {k: f.get(k) for k in fields}
            time.sleep(0.15)
        logs = list(self.syslog.lines)
        out = {}
        for i, c in enumerate(cases):
            srv, agent = self.servers[c["name"]]
            be = "b%d" % i
            # per server and kind of line (their order across servers and kinds is the checks' timing)
            groups = collections.defaultdict(list)
            for x in (norm(x) for x in logs if re.search(r"\b%s\b" % be, x)):
                g = groups[re.match(r"(\S+ \S+ )?(?:for (?:backup )?server )?(\S+)", x).group(0)]
                if not g or g[-1] != x:
                    g.append(x)
            folded = [x for k in sorted(groups) for x in groups[k]]
            stats = {sv + "." + k: v for (px, sv, _), row in rows.items() if px == be for k, v in row.items()}
            r = dict(sent=[bytes(x) for x in srv.got[:2]], agent=[bytes(x) for x in agent.got[:2]] if agent else [],
                     logs=folded, stats=stats)
            out[c["name"]] = masked(r, c["mask"])
        return out

    def stop(self):
        stop(self.proc, self.out)


CHECK_FIELDS = ["status", "weight", "uweight", "check_status", "check_code", "check_desc", "last_chk", "check_rise",
                "check_fall", "check_health", "act", "bck"]
AGENT_FIELDS = ["agent_status", "agent_code", "agent_desc", "last_agt", "agent_rise", "agent_fall", "agent_health"]


def norm(line):
    line = re.sub(r"check duration: \d+ms", "check duration: Nms", line)
    line = re.sub(r"^<\d+>", "", line)
    return line


def masked(r, masks):
    for m in masks:
        rx, brx = re.compile(m), re.compile(m.encode())
        r["sent"] = [brx.sub(b"MASK", x) for x in r["sent"]]
        r["logs"] = [rx.sub("MASK", x) for x in r["logs"]]
    return r


def compare(fr, hr):
    diffs = []
    for what in ("sent", "agent", "logs"):
        if fr[what] != hr[what]:
            diffs.append((what, fr[what], hr[what]))
    fs, hs = fr["stats"], hr["stats"]
    for k in sorted(set(fs) | set(hs)):
        if fs.get(k) != hs.get(k) and hs.get(k) is not None:
            diffs.append(("stat " + k, fs.get(k), hs.get(k)))
    return diffs


def main():
    ap = h1diff.argparse.ArgumentParser()
    ap.add_argument("--only")
    ap.add_argument("--port", type=int, default=17000)
    ap.add_argument("--haproxy", default="/usr/sbin/haproxy")
    ap.add_argument("--seconds", type=float, default=4)
    ap.add_argument("-v", action="store_true")
    a = ap.parse_args()
    cases = [c for c in CASES if not a.only or re.search(a.only, c["name"])]
    names = collections.Counter(c["name"] for c in CASES)
    assert max(names.values()) == 1, [n for n, k in names.items() if k > 1]
    tmp = tempfile.mkdtemp(prefix="checkdiff-")
    rulesdiff.make_certs(tmp)
    f = Proxy("fulcrum", [os.path.join(HOME, "bin/fulcrum")], a.port, a.port + 10, tmp, cases)
    try:
        h = Proxy("haproxy", [a.haproxy], a.port + 1, a.port + 10 + 2 * len(cases), tmp, cases)
    except BaseException:
        f.stop()
        raise
    try:
        time.sleep(1)
        RECORDING.set()
        time.sleep(a.seconds)
        fres, hres = f.results(cases), h.results(cases)
    finally:
        f.stop()
        h.stop()
    counts = collections.Counter()
    for c in cases:
        diffs = compare(fres[c["name"]], hres[c["name"]])
        counts[h1diff.report(c["name"], diffs, KNOWN, a.v, hres[c["name"]]["logs"])] += 1
    return h1diff.summary(counts, tmp)


if __name__ == "__main__":
    sys.exit(main())
