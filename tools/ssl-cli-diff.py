#!/usr/bin/env python3
"""Differential sweep of the TLS runtime commands: the same certificate updates through Fulcrum's and haproxy's CLI,
with handshakes between them.

Both proxies load the same certificates (made with openssl at the start, tools/rules-diff.py's make_certs) on a TLS
frontend with a crt-list, and a second one verifying client certificates against a CA file. Each case is a sequence
of steps run on both: a CLI command (one connection each; a payload follows "<<" up to an empty line), or a
handshake ("hs NAME": the SNI sent, or none for "hs -") whose served certificate is printed as its subject and
serial, or a request with a client certificate ("get NAME", "get -": none) to the second frontend, printing what its
rule says of the certificate (ssl_c_used, ssl_c_verify). The script compares the normalized outputs step by step. Cases run in order on the same two proxies: a
committed change stays for the next cases, as it would for an operator.

Usage: tools/ssl-cli-diff.py [--only REGEX] [--port 14800] [--haproxy /usr/sbin/haproxy] [-v]
Ports: --port .. --port+1 (Fulcrum's frontends), --port+10 .. --port+11 (haproxy's).
Differences listed in KNOWN (documented) print as "known"; the exit status is 1 when another one is found.
The packaged jar must exist (bin/mvn -q -o package -DskipTests).
"""
import difflib
import os
import re
import socket
import ssl
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from proxyrun import cli, start, stop, wait_listening  # noqa: E402

h1diff = __import__("h1-diff")
rulesdiff = __import__("rules-diff")
HOME = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

CONFIG = """global
    stats socket {sock} level admin
    stats timeout 10s
defaults
    mode http
    timeout connect 2s
    timeout client 5s
    timeout server 5s
frontend tls
    bind 127.0.0.1:{fe} ssl crt {dir}/a.pem crt-list {dir}/list.txt
    http-request return status 200 content-type text/plain lf-string "sni=%[ssl_fc_sni]"
frontend mtls
    bind 127.0.0.1:{fe2} ssl crt {dir}/b.pem ca-file {dir}/ca.pem verify optional crl-file {dir}/crl.pem
    http-request return status 200 content-type text/plain lf-string "c=%[ssl_c_used] v=%[ssl_c_verify]"
"""

LIST = "{dir}/b.pem [ssl-min-ver TLSv1.2] b.example\n{dir}/b.pem *.b.example !x.b.example\n"


def pem(name):
    return "{pem:%s}" % name


def payload(command, name):
    """A command whose payload is file <name> of the run's directory."""
    return command + " <<\n" + pem(name)


def case(name, *steps):
    return dict(name=name, steps=list(steps))


CASES = [
    case("show-lists", "show ssl cert", "show ssl crt-list", "show ssl crt-list {dir}/list.txt",
         "show ssl crt-list -n {dir}/list.txt", "show ssl ca-file", "show ssl crl-file"),
    case("show-cert", "show ssl cert {dir}/a.pem", "show ssl cert {dir}/b.pem", "show ssl cert {dir}/nosuch.pem"),
    case("show-ca-crl", "show ssl ca-file {dir}/ca.pem", "show ssl crl-file {dir}/crl.pem",
         "show ssl ca-file {dir}/nosuch.pem"),
    case("handshakes", "hs a.example", "hs b.example", "hs y.b.example", "hs x.b.example", "hs -", "hs other"),
    case("set-abort", payload("set ssl cert {dir}/a.pem", "a2.pem"), "show ssl cert",
         "show ssl cert *{dir}/a.pem", "hs a.example", "abort ssl cert {dir}/a.pem", "show ssl cert", "hs a.example"),
    case("set-commit", payload("set ssl cert {dir}/a.pem", "a2.pem"), "commit ssl cert {dir}/a.pem",
         "show ssl cert {dir}/a.pem", "hs a.example", "hs -"),
    case("set-errors", payload("set ssl cert {dir}/nosuch.pem", "a2.pem"), "commit ssl cert {dir}/a.pem",
         "abort ssl cert {dir}/a.pem", "set ssl cert {dir}/a.pem <<\ngarbage\n", "show ssl cert",
         "abort ssl cert {dir}/a.pem", payload("set ssl cert {dir}/a.pem", "b.crt"), "abort ssl cert {dir}/a.pem"),
    case("set-cert-only", payload("set ssl cert {dir}/a.pem", "a.crt"), "show ssl cert *{dir}/a.pem",
         "commit ssl cert {dir}/a.pem", "hs a.example", payload("set ssl cert {dir}/a.pem", "b.crt"),
         "commit ssl cert {dir}/a.pem", "hs a.example", "show ssl cert"),
    case("set-payload-forms", "set ssl cert {dir}/a.pem <<\n{pem:a.crt}{pem:ca.pem}{pem:a.key}",
         "show ssl cert *{dir}/a.pem", "abort ssl cert {dir}/a.pem",
         "set ssl cert {dir}/a.pem <<\n{pem:a.crt}{pem:b.key}", "show ssl cert",
         "set ssl cert {dir}/a.pem <<\n{pem:b.key}", "show ssl cert",
         "commit ssl cert {dir}/a.pem", payload("set ssl cert {dir}/a.pem.key", "a.key"), "show ssl cert",
         "commit ssl cert {dir}/a.pem", "hs a.example", payload("set ssl cert {dir}/a.pem.key", "b.key"),
         "commit ssl cert {dir}/a.pem", "abort ssl cert {dir}/a.pem",
         "set ssl cert {dir}/a.pem", "commit ssl cert", "abort ssl cert"),
    case("set-issuer", payload("set ssl cert {dir}/a.pem.issuer", "ca.pem"), "show ssl cert", "abort ssl cert {dir}/a.pem"),
    case("set-two-transactions", payload("set ssl cert {dir}/a.pem", "a.pem"),
         payload("set ssl cert {dir}/b.pem", "c.pem"), "abort ssl cert {dir}/a.pem", "commit ssl cert {dir}/a.pem"),
    case("set-crt-list-cert", payload("set ssl cert {dir}/b.pem", "a.pem"), "commit ssl cert {dir}/b.pem",
         "hs b.example", "hs y.b.example", payload("set ssl cert {dir}/b.pem", "b.pem"), "commit ssl cert {dir}/b.pem",
         "hs b.example"),
    case("new-add-del", "new ssl cert {dir}/c.pem", "show ssl cert", "show ssl cert {dir}/c.pem",
         payload("set ssl cert {dir}/c.pem", "c.pem"), "commit ssl cert {dir}/c.pem",
         "add ssl crt-list {dir}/list.txt {dir}/c.pem [ssl-min-ver TLSv1.2] c.example *.c.example",
         "show ssl crt-list -n {dir}/list.txt", "hs c.example", "hs w.c.example",
         "del ssl crt-list {dir}/list.txt {dir}/c.pem", "show ssl crt-list {dir}/list.txt", "hs c.example",
         "del ssl cert {dir}/c.pem", "show ssl cert"),
    case("add-errors", "add ssl crt-list {dir}/list.txt {dir}/nosuch.pem", "add ssl crt-list {dir}/nosuch.txt {dir}/b.pem",
         "del ssl crt-list {dir}/list.txt {dir}/nosuch.pem", "del ssl crt-list {dir}/list.txt {dir}/b.pem:9",
         "del ssl cert {dir}/a.pem", "del ssl cert {dir}/nosuch.pem", "new ssl cert {dir}/a.pem",
         "new ssl cert {dir}/d.pem", "new ssl cert {dir}/d.pem", "del ssl cert {dir}/d.pem"),
    case("add-payload", "new ssl cert {dir}/c.pem", payload("set ssl cert {dir}/c.pem", "c.pem"),
         "commit ssl cert {dir}/c.pem", "add ssl crt-list {dir}/list.txt <<\n{dir}/c.pem c.example\n",
         "show ssl crt-list {dir}/list.txt", "hs c.example", "del ssl crt-list {dir}/list.txt {dir}/c.pem",
         "del ssl cert {dir}/c.pem"),
    case("ca-file", payload("set ssl ca-file {dir}/ca.pem", "other-ca.pem"), "show ssl ca-file",
         "show ssl ca-file *{dir}/ca.pem", "abort ssl ca-file {dir}/ca.pem", "show ssl ca-file {dir}/ca.pem",
         payload("add ssl ca-file {dir}/ca.pem", "other-ca.pem"), "commit ssl ca-file {dir}/ca.pem",
         "show ssl ca-file {dir}/ca.pem"),
    case("crl-file", payload("set ssl crl-file {dir}/crl.pem", "crl.pem"), "show ssl crl-file",
         "commit ssl crl-file {dir}/crl.pem", "show ssl crl-file {dir}/crl.pem"),
    case("tls-keys", "show tls-keys", "show tls-keys -1", "show tls-keys nosuch"),
    case("crt-list-options", "add ssl crt-list {dir}/list.txt <<\n{dir}/a.pem [alpn h2,http/1.1 ssl-min-ver TLSv1.2] "
                             "alpha.example\n{dir}/a.pem [verify none] beta.example\n",
         "show ssl crt-list {dir}/list.txt", "show ssl crt-list -n {dir}/list.txt", "hs alpha.example",
         "del ssl crt-list {dir}/list.txt {dir}/a.pem", "del ssl crt-list {dir}/list.txt {dir}/a.pem:4",
         "show ssl crt-list -n {dir}/list.txt", "del ssl crt-list {dir}/list.txt {dir}/a.pem",
         "show ssl crt-list -n {dir}/list.txt", "hs alpha.example"),
    case("ca-file-new-del", "new ssl ca-file {dir}/new-ca.pem", "show ssl ca-file", payload("set ssl ca-file {dir}/new-ca.pem", "ca.pem"),
         "commit ssl ca-file {dir}/new-ca.pem", "show ssl ca-file {dir}/new-ca.pem", "del ssl ca-file {dir}/new-ca.pem",
         "del ssl ca-file {dir}/ca.pem", "new ssl ca-file {dir}/ca.pem"),
    case("crl-file-new-del", "new ssl crl-file {dir}/new-crl.pem", "show ssl crl-file", "del ssl crl-file {dir}/new-crl.pem",
         "del ssl crl-file {dir}/crl.pem"),
    case("client-certs", "get client", "get revoked", "get stranger", "get -"),
]

KNOWN = {
    "set-issuer": "set ssl cert on a .issuer, .ocsp or .sctl file is refused: Fulcrum keeps no such side file (set ssl "
                  "ocsp-response replaces a response) (differences.md, TLS)",
    "set-two-transactions": "set ssl cert on another file than the transaction's is refused; haproxy 2.6.12 puts the payload "
                            "in the open transaction, whatever the file (differences.md, TLS)",
}


def handshake(port, sni, d):
    """The subject and serial of the certificate the frontend on <port> serves for <sni> ("-": none)."""
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    ctx.check_hostname = False
    ctx.verify_mode = ssl.CERT_NONE
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=5) as raw:
            with ctx.wrap_socket(raw, server_hostname=None if sni == "-" else sni) as s:
                der = s.getpeercert(binary_form=True)
    except (OSError, ssl.SSLError) as e:
        return "<%s>" % (getattr(e, "reason", None) or type(e).__name__)
    out = subprocess.run(["openssl", "x509", "-inform", "der", "-noout", "-subject", "-serial"], input=der,
                         stdout=subprocess.PIPE, cwd=d, check=True)
    return out.stdout.decode().strip().replace("\n", " ")


def request(port, cert, d):
    """The body of a GET on the frontend <port> (client certificates) with the client certificate <cert> ("-": none)."""
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    ctx.check_hostname = False
    ctx.verify_mode = ssl.CERT_NONE
    if cert != "-":
        ctx.load_cert_chain(os.path.join(d, cert + ".crt"), os.path.join(d, cert + ".key"))
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=5) as raw:
            with ctx.wrap_socket(raw) as s:
                s.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                got = b""
                while True:
                    data = s.recv(4096)
                    if not data:
                        break
                    got += data
    except (OSError, ssl.SSLError) as e:
        return "<%s>" % (getattr(e, "reason", None) or type(e).__name__)
    return got.split(b"\r\n\r\n", 1)[-1].decode("latin-1")


class Proxy:
    def __init__(self, name, cmd, base, tmp):
        self.name, self.dir = name, tmp
        self.sock = os.path.join(tmp, name + ".sock")
        self.fe, self.fe2 = base, base + 1
        self.proc, self.out = start(name, cmd, tmp, CONFIG.format(sock=self.sock, fe=self.fe, fe2=self.fe2, dir=tmp))
        try:
            wait_listening(self.fe2, self.proc)
        except BaseException:
            self.stop()
            raise

    def step(self, line):
        if line.startswith("hs "):
            return handshake(self.fe, line[3:], self.dir)
        if line.startswith("get "):
            return request(self.fe2, line[4:], self.dir)
        return cli(self.sock, fill(line, self.dir))

    def stop(self):
        stop(self.proc, self.out)


def fill(line, d):
    def content(m):
        with open(os.path.join(d, m.group(1))) as f:
            return f.read()
    return re.sub(r"\{pem:([^}]+)\}", content, line.replace("{dir}", d))


def norm(text, d):
    text = text.replace(d, "DIR")
    # haproxy's httpclient always loads @system-ca; Fulcrum lists it when a ca-file uses it (differences.md, TLS)
    text = re.sub(r"(?m)^@system-ca - \d+ certificate\(s\)\n", "", text)
    return re.sub(r"(?m)^(Not After|Not Before|Serial|SHA1 FingerPrint|Last Update|Next Update).*$",
                  lambda m: m.group(0) if m.group(1) in ("Serial", "SHA1 FingerPrint") else m.group(1) + ": X", text)


def main():
    a = h1diff.arguments(14800)
    tmp = tempfile.mkdtemp(prefix="sslclidiff-")
    rulesdiff.make_certs(tmp)
    with open(os.path.join(tmp, "list.txt"), "w") as f:
        f.write(LIST.format(dir=tmp))
    f = Proxy("fulcrum", [os.path.join(HOME, "bin/fulcrum")], a.port, tmp)
    try:
        h = Proxy("haproxy", [a.haproxy], a.port + 10, tmp)
    except BaseException:
        f.stop()
        raise
    counts = {"same": 0, "known": 0, "differ": 0}
    try:
        for c in CASES:
            if a.only and not re.search(a.only, c["name"]):
                continue
            outs = {}
            for p in (f, h):
                outs[p.name] = "".join("$ %s\n%s\n" % (s.split("\n")[0], norm(p.step(s), tmp)) for s in c["steps"])
            if outs["fulcrum"] == outs["haproxy"]:
                counts["same"] += 1
                if a.v:
                    print("same %s" % c["name"])
            elif c["name"] in KNOWN and not a.v:
                counts["known"] += 1
                print("known %s: %s" % (c["name"], KNOWN[c["name"]]))
            else:
                counts["differ"] += 1
                print("DIFF %s" % c["name"])
                for line in difflib.unified_diff(outs["haproxy"].split("\n"), outs["fulcrum"].split("\n"), "haproxy",
                                                 "fulcrum", n=2, lineterm=""):
                    print("   " + line[:300])
    finally:
        f.stop()
        h.stop()
    return h1diff.summary(counts, tmp)


if __name__ == "__main__":
    sys.exit(main())
